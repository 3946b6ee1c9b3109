import { AsyncLocalStorage } from 'node:async_hooks';
import type { Aptos, Client, ClientRequest, ClientResponse, LedgerInfo } from '@aptos-labs/ts-sdk';
import { deadline } from '../../deadline.js';
import { limitedFetch } from '../body.js';
import { CircuitBreaker } from '../breaker.js';
import { UpstreamHttpError, UpstreamUnavailableError } from '../errors.js';

export interface FullnodeOptions {
  /** Provider name in errors and logs, e.g. `movement-fullnode`, `aptos-fullnode`. */
  name: string;
  /** The fullnode's REST base, e.g. `https://mainnet.movementnetwork.xyz/v1`. */
  url: string;
  timeoutMs: number;
  maxBodyBytes: number;
}

/**
 * One Aptos REST API fullnode (Aptos itself, or Movement, which serves the same API), spoken to with
 * `@aptos-labs/ts-sdk`. The
 * SDK's own HTTP client has no timeout, no body limit and no breaker, so requests go through the
 * provider below instead: every call is bounded by `timeoutMs` and the caller's signal, a node that
 * keeps failing is skipped for a while, and failures are the platform's upstream errors (fast 503s).
 */
export class Fullnode {
  private readonly breaker = new CircuitBreaker({ failureThreshold: 5, cooldownMs: 10_000 });
  private readonly fetch: typeof fetch;
  // The caller's signal reaches the provider through the SDK, which has no per-call signal of its own.
  private readonly signals = new AsyncLocalStorage<AbortSignal | undefined>();
  // The SDK is large: a process without a fullnode configured never loads it, and one with
  // starts loading it here so that the first lookup's deadline is not spent on the import.
  private readonly aptos: Promise<Aptos>;

  constructor(readonly options: FullnodeOptions) {
    this.fetch = limitedFetch(options.maxBodyBytes) as typeof fetch;
    const client: Client = { provider: (request) => this.send(request, this.signals.getStore()) };
    // `network` only picks default endpoints, all overridden by `fullnode`; CUSTOM would print a note
    // on stdout for every client.
    this.aptos = import('@aptos-labs/ts-sdk').then(
      ({ Aptos, AptosConfig, Network }) =>
        new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: options.url, client })),
    );
    // Observed by `call`; a failed import must not surface as an unhandled rejection before then.
    this.aptos.catch(() => {});
  }

  /** Settles once the SDK is loaded, so a caller can keep that load out of the first lookup's deadline. */
  async ready(): Promise<void> {
    await this.aptos;
  }

  /** Runs `fn` with the SDK client; its requests also stop when `signal` aborts. */
  async call<T>(signal: AbortSignal | undefined, fn: (aptos: Aptos) => Promise<T>): Promise<T> {
    const aptos = await this.aptos;
    return this.signals.run(signal, () => fn(aptos));
  }

  /**
   * `GET /v1`: the chain head. Not the SDK's `getLedgerInfo`, which memoizes the answer per network
   * *name* for all clients, so two fullnodes (or a fresh head) would read one stale answer.
   */
  async ledgerInfo(signal?: AbortSignal): Promise<LedgerInfo> {
    return (await this.send<never, LedgerInfo>({ url: this.options.url, method: 'GET' }, signal)).data;
  }

  private async send<Req, Res>(request: ClientRequest<Req>, signal?: AbortSignal): Promise<ClientResponse<Res>> {
    const admission = this.breaker.admit();
    if (!admission.allowed) {
      throw new UpstreamUnavailableError(
        this.options.name,
        'circuit_open',
        `${this.options.url} is failing; retrying shortly`,
      );
    }
    const url = new URL(request.url);
    for (const [key, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const limit = deadline(this.options.timeoutMs, signal);
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, {
        method: request.method,
        headers: { ...request.headers, accept: 'application/json' },
        body:
          request.body === undefined
            ? undefined
            : request.body instanceof Uint8Array
              ? (request.body as BodyInit)
              : JSON.stringify(request.body),
        signal: limit.signal,
      });
      text = await response.text();
    } catch (err) {
      this.breaker.failure();
      const timedOut = limit.signal.aborted;
      throw new UpstreamUnavailableError(
        this.options.name,
        timedOut ? 'timeout' : 'network',
        timedOut ? `no answer from ${url.origin} in time` : `cannot reach ${url.origin}`,
        { cause: err },
      );
    } finally {
      limit.clear();
    }
    let data: unknown;
    try {
      data = text === '' ? null : JSON.parse(text);
    } catch (err) {
      this.breaker.failure();
      throw new UpstreamUnavailableError(this.options.name, 'invalid_body', `${url.origin} answered with non-JSON`, {
        cause: err,
      });
    }
    if (response.status >= 500 || response.status === 429) this.breaker.failure();
    else this.breaker.success();
    if (!response.ok) throw new UpstreamHttpError(this.options.name, response.status, data, url.toString());
    return {
      status: response.status,
      statusText: response.statusText,
      data: data as Res,
      headers: Object.fromEntries(response.headers),
    };
  }
}

/**
 * A Move abort (the function ran and refused, e.g. `get_expiration` of an unregistered name): the
 * Aptos API answers 400 with an `AptosError` body whose message names the abort. Anything else (an
 * unknown function, a bad argument) is a configuration problem, not an absent name.
 */
export function isMoveAbort(err: unknown): boolean {
  return (
    err instanceof UpstreamHttpError &&
    err.status === 400 &&
    /abort/i.test(err.upstreamMessage ?? '') &&
    !/function .* not found|could not find/i.test(err.upstreamMessage ?? '')
  );
}
