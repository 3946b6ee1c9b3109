import { UpstreamError } from './status.js';

/**
 * The upstream answered, but not with success. Carries the HTTP status and the parsed body so an
 * adapter can tell "no route" (LI.FI's 404) from "bad parameters" (400) from "server trouble" (5xx).
 */
export class UpstreamHttpError extends UpstreamError {
  override name = 'UpstreamHttpError';
  constructor(
    provider: string,
    readonly status: number,
    /** Parsed JSON when the body was JSON, else the raw text (possibly empty). */
    readonly body: unknown,
    readonly url: string,
    /** Delay the upstream asked for in a Retry-After header, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(provider, `HTTP ${status} from ${redactQuery(url)}${describeBody(body)}`);
  }

  /**
   * The request itself was refused (4xx other than 408/429): retrying cannot help and the caller's
   * input is the likely cause, so a gateway can answer 400 rather than 503.
   */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }

  /** The upstream's own explanation, when its error body has a `message`. */
  get upstreamMessage(): string | undefined {
    if (typeof this.body === 'string') return this.body.length > 0 ? this.body.slice(0, 500) : undefined;
    if (this.body !== null && typeof this.body === 'object' && 'message' in this.body) {
      const m = (this.body as { message: unknown }).message;
      return typeof m === 'string' ? m : undefined;
    }
    return undefined;
  }
}

export type UnavailableReason = 'timeout' | 'network' | 'circuit_open' | 'invalid_body' | 'too_large';

/** The upstream could not be asked, or gave nothing usable: a 503 situation, never the caller's fault. */
export class UpstreamUnavailableError extends UpstreamError {
  override name = 'UpstreamUnavailableError';
  constructor(
    provider: string,
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(provider, message, options);
  }
}

/** True when the error means "the upstream rejected the request" (map to 400), false for outages. */
export function isUpstreamClientError(err: unknown): err is UpstreamHttpError {
  return err instanceof UpstreamHttpError && err.isClientError;
}

function describeBody(body: unknown): string {
  if (body === undefined || body === null || body === '') return '';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** Query strings can carry wallet addresses and hashes; keep error messages to the path. */
function redactQuery(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
