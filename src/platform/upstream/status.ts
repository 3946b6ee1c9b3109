/** Whether a provider can serve: a provider with no upstream configured is disabled and says why. */
export type ProviderStatus = { enabled: true } | { enabled: false; reason: string };

export const enabled: ProviderStatus = { enabled: true };
export const disabled = (reason: string): ProviderStatus => ({ enabled: false, reason });

/** Raised by a provider when its upstream failed (timeout, 5xx, open circuit, bad answer). */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
  }
}
