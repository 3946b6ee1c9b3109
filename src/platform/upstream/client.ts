import { deadline } from '../deadline.js';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, limitBody } from './body.js';
import { type BreakerState, CircuitBreaker } from './breaker.js';
import { UpstreamHttpError, UpstreamUnavailableError } from './errors.js';
import { observed } from './observe.js';

export type QueryValue = string | number | bigint | boolean | undefined | null;
export type Query = Record<string, QueryValue>;

export interface HttpClientOptions {
  /** Provider name, carried by every error so logs and responses say which upstream failed. */
  name: string;
  baseUrl: string;
  /** Budget of one attempt (connect + headers + body). */
  timeoutMs: number;
  /** Extra attempts after the first one, for transient failures only. */
  retries: number;
  /** Longest answer body read (`UPSTREAM_MAX_BODY_BYTES`); a longer one fails the call. Defaults to 5 MiB. */
  maxBodyBytes?: number;
  headers?: Record<string, string>;
  /** Defaults to 5 consecutive failed calls and a 30 s cool-down; `false` disables it. */
  breaker?: { failureThreshold: number; cooldownMs: number } | false;
  backoff?: {
    /** First retry waits about this long; each further retry doubles it. */
    baseMs?: number;
    /** Ceiling of the exponential delay. */
    maxMs?: number;
    /** Longest Retry-After we are willing to wait; beyond it we give up instead of stalling the caller. */
    maxRetryAfterMs?: number;
  };
  /** Injected for tests. */
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RequestOptions {
  /**
   * The caller's deadline (or cancellation) for the whole call: every attempt, and every back-off
   * between them, stops when it aborts, and the call rejects with the signal's reason. Pass one signal
   * to several calls (e.g. `AbortSignal.timeout(ms)`) to give sequential fallbacks one shared budget.
   */
  signal?: AbortSignal;
}

export interface HttpClient {
  readonly name: string;
  readonly baseUrl: string;
  /** GET `path` (relative to the base URL) and parse the JSON answer. */
  getJson<T = unknown>(path: string, query?: Query, options?: RequestOptions): Promise<T>;
  /**
   * POST a JSON body to `path` and parse the JSON answer. Retried like a GET, so only for calls that are
   * safe to repeat (batch reads).
   */
  postJson<T = unknown>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  readonly breakerState: BreakerState;
}

const DEFAULT_BREAKER = { failureThreshold: 5, cooldownMs: 30_000 };

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { name, timeoutMs, retries } = options;
  if (!(timeoutMs > 0)) throw new RangeError(`${name}: timeoutMs must be positive`);
  if (!(retries >= 0) || !Number.isInteger(retries)) throw new RangeError(`${name}: retries must be a whole number`);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBodyBytes > 0)) throw new RangeError(`${name}: maxBodyBytes must be positive`);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // Validate once so a bad configuration fails at start-up rather than on the first request.
  new URL(baseUrl);
  const baseMs = options.backoff?.baseMs ?? 200;
  const maxMs = options.backoff?.maxMs ?? 2_000;
  const maxRetryAfterMs = options.backoff?.maxRetryAfterMs ?? 5_000;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const wait = options.sleep ?? sleep;
  const breakerOptions = options.breaker === undefined ? DEFAULT_BREAKER : options.breaker;
  const breaker = breakerOptions === false ? undefined : new CircuitBreaker({ ...breakerOptions, now });
  const headers = { accept: 'application/json', ...options.headers };

  async function attempt(url: string, callerSignal: AbortSignal | undefined, body?: string): Promise<unknown> {
    const cut = new AbortController();
    const limit = deadline(timeoutMs, callerSignal, cut.signal);
    const { signal } = limit;
    const unreachable = (err: unknown): never => {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (err instanceof BodyTooLargeError) {
        throw new UpstreamUnavailableError(name, 'too_large', `answer from ${path(url)} is ${err.message}`, {
          cause: err,
        });
      }
      if (limit.timedOut) {
        throw new UpstreamUnavailableError(name, 'timeout', `no answer within ${timeoutMs} ms`, { cause: err });
      }
      throw new UpstreamUnavailableError(name, 'network', `request failed: ${errorText(err)}`, { cause: err });
    };
    let response: Response;
    let text: string;
    try {
      response = limitBody(
        await fetch(
          url,
          body === undefined
            ? { method: 'GET', headers, signal, redirect: 'follow' }
            : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, signal },
        ),
        maxBodyBytes,
        (reason) => cut.abort(reason),
      );
      // Reading the body stays under the same signal: a server that sends headers and then stalls
      // is as unavailable as one that never answers.
      text = await response.text();
    } catch (err) {
      return unreachable(err);
    } finally {
      limit.clear();
    }
    if (!response.ok) {
      throw new UpstreamHttpError(
        name,
        response.status,
        parseMaybeJson(text),
        url,
        parseRetryAfter(response.headers.get('retry-after'), now()),
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new UpstreamUnavailableError(name, 'invalid_body', `answer from ${path(url)} is not JSON`, { cause: err });
    }
  }

  /** Exponential backoff with "equal jitter": never shorter than half the step, so retries stay spaced. */
  function backoffDelay(retryIndex: number): number {
    const step = Math.min(maxMs, baseMs * 2 ** retryIndex);
    return step / 2 + random() * (step / 2);
  }

  const getJson = <T>(urlPath: string, query: Query = {}, requestOptions: RequestOptions = {}): Promise<T> =>
    observed(name, breakerState, () => call<T>(buildUrl(baseUrl, urlPath, query), undefined, requestOptions));

  const postJson = <T>(urlPath: string, body: unknown, requestOptions: RequestOptions = {}): Promise<T> =>
    observed(name, breakerState, () => call<T>(buildUrl(baseUrl, urlPath, {}), JSON.stringify(body), requestOptions));

  const breakerState = () => breaker?.state ?? 'closed';

  async function call<T>(url: string, body: string | undefined, requestOptions: RequestOptions): Promise<T> {
    const { signal } = requestOptions;
    if (signal?.aborted) throw signal.reason;
    const admission = breaker?.admit() ?? { allowed: true as const, probe: false };
    if (!admission.allowed) {
      throw new UpstreamUnavailableError(
        name,
        'circuit_open',
        `circuit open after repeated failures; next probe in ${Math.ceil(admission.retryInMs / 1000)} s`,
      );
    }
    // A half-open probe is a single question: if the upstream is still sick, we learn it once.
    const attempts = admission.probe ? 1 : retries + 1;
    for (let i = 0; ; i++) {
      try {
        const value = await attempt(url, signal, body);
        breaker?.success();
        return value as T;
      } catch (err) {
        if (signal?.aborted) {
          breaker?.release();
          throw signal.reason;
        }
        const verdict = classify(err);
        if (!verdict.upstreamFault) {
          // The upstream answered sensibly (e.g. 404 "no route"): it is healthy, whatever the answer.
          breaker?.success();
          throw err;
        }
        const last = i + 1 >= attempts;
        const delay = verdict.retryable && !last ? retryDelay(verdict.retryAfterMs, i) : undefined;
        if (delay === undefined) {
          breaker?.failure();
          throw err;
        }
        try {
          await wait(delay, signal);
        } catch (abortReason) {
          breaker?.release();
          throw abortReason;
        }
      }
    }
  }

  function retryDelay(retryAfterMs: number | undefined, retryIndex: number): number | undefined {
    const backoff = backoffDelay(retryIndex);
    if (retryAfterMs === undefined) return backoff;
    if (retryAfterMs > maxRetryAfterMs) return undefined;
    return Math.max(backoff, retryAfterMs);
  }

  return {
    name,
    baseUrl,
    getJson,
    postJson,
    get breakerState() {
      return breaker?.state ?? 'closed';
    },
  };
}

interface Verdict {
  /** Counts against the circuit breaker. */
  upstreamFault: boolean;
  retryable: boolean;
  retryAfterMs?: number;
}

function classify(err: unknown): Verdict {
  if (err instanceof UpstreamUnavailableError) {
    // A body that is not JSON will not turn into JSON on a second try, nor a huge one shrink.
    return { upstreamFault: true, retryable: err.reason !== 'invalid_body' && err.reason !== 'too_large' };
  }
  if (err instanceof UpstreamHttpError) {
    const s = err.status;
    if (s === 429 || s === 408) return { upstreamFault: true, retryable: true, retryAfterMs: err.retryAfterMs };
    // 501/505 say "never", not "not now".
    if (s >= 500) return { upstreamFault: true, retryable: s !== 501 && s !== 505, retryAfterMs: err.retryAfterMs };
    return { upstreamFault: false, retryable: false };
  }
  return { upstreamFault: true, retryable: false };
}

export function buildUrl(baseUrl: string, urlPath: string, query: Query): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/${urlPath.replace(/^\/+/, '')}`);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

function parseMaybeJson(text: string): unknown {
  if (text.length === 0) return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    // undici hides the socket error (ECONNREFUSED…) in `cause`.
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

function path(url: string): string {
  return new URL(url).pathname;
}
