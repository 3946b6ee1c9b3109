import { AppError } from '../errors.js';

/** Whether a provider can serve: a provider with no upstream configured is disabled and says why. */
export type ProviderStatus = { enabled: true } | { enabled: false; reason: string };

export const enabled: ProviderStatus = { enabled: true };
export const disabled = (reason: string): ProviderStatus => ({ enabled: false, reason });

/**
 * Raised by a provider when its upstream failed (timeout, 5xx, open circuit, bad answer). Callers
 * usually leave the provider out of the answer; one that reaches the caller is a free 503.
 */
export class UpstreamError extends AppError {
  override name = 'UpstreamError';
  constructor(
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('UPSTREAM_UNAVAILABLE', `${provider}: ${message}`);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
