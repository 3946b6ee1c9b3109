import { channel } from 'node:diagnostics_channel';
import type { BreakerState } from './breaker.js';
import { UpstreamHttpError, UpstreamUnavailableError } from './errors.js';

/** Every upstream call is published here (metrics subscribe); publishing costs nothing without subscribers. */
export const UPSTREAM_CHANNEL = 'cipgate:upstream';
const upstream = channel(UPSTREAM_CHANNEL);

export interface UpstreamCall {
  provider: string;
  durationMs: number;
  /** Why the call failed (timeout, network, circuit_open, http_404, …); absent on success. */
  error?: string;
  /** The provider's circuit breaker after the call. */
  breaker: BreakerState;
}

/** Runs one upstream call (retries included) and publishes its outcome and duration. */
export async function observed<T>(provider: string, breaker: () => BreakerState, call: () => Promise<T>): Promise<T> {
  if (!upstream.hasSubscribers) return call();
  const started = performance.now();
  try {
    const value = await call();
    upstream.publish({ provider, durationMs: performance.now() - started, breaker: breaker() } satisfies UpstreamCall);
    return value;
  } catch (err) {
    const error =
      err instanceof UpstreamUnavailableError
        ? err.reason
        : err instanceof UpstreamHttpError
          ? `http_${err.status}`
          : 'aborted';
    upstream.publish({
      provider,
      durationMs: performance.now() - started,
      error,
      breaker: breaker(),
    } satisfies UpstreamCall);
    throw err;
  }
}
