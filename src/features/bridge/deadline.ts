/**
 * One deadline per request: every upstream call a request makes, fallbacks and retries included,
 * shares a single `AbortSignal`, so a request answers within PROVIDER_TIMEOUT_MS however many
 * calls it needed.
 */
export const requestDeadline = (timeoutMs: number): AbortSignal => AbortSignal.timeout(timeoutMs);

/** Settles like `work`, or rejects with the signal's reason once it aborts, even if `work` ignores it. */
export function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export const isDeadlineError = (err: unknown): boolean => err instanceof Error && err.name === 'TimeoutError';
