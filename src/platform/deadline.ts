/** A deadline for one piece of work; `clear()` it when the work ends, whether it succeeded or not. */
export interface Deadline {
  /** Aborts with a `TimeoutError` once the time is up, or with a parent's reason when a parent aborts. */
  readonly signal: AbortSignal;
  /** The time ran out (rather than a parent aborting first). */
  readonly timedOut: boolean;
  /** Stops the timer and lets go of the parents. Idempotent. */
  clear(): void;
}

const timedOut = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

/**
 * A signal that aborts after `ms`, or as soon as one of `parents` aborts: `AbortSignal.any([...parents,
 * AbortSignal.timeout(ms)])`, except that it is released when the work ends. `AbortSignal.timeout` keeps
 * its timer, and `AbortSignal.any` its links, until the time is up even when the work finished long
 * before: under a search load, thousands of live timers and signals held for nothing at any moment.
 *
 * @example
 * const limit = deadline(2_000, request.signal);
 * try {
 *   return await fetch(url, { signal: limit.signal });
 * } finally {
 *   limit.clear();
 * }
 */
export function deadline(ms: number, ...parents: (AbortSignal | undefined)[]): Deadline {
  const controller = new AbortController();
  const { signal } = controller;
  const followed: AbortSignal[] = [];
  const onParentAbort = function (this: AbortSignal) {
    controller.abort(this.reason);
  };
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    parent.addEventListener('abort', onParentAbort, { once: true });
    followed.push(parent);
  }
  // Like AbortSignal.timeout's own timer, this one does not keep the process alive.
  let expired = false;
  const timer = signal.aborted
    ? undefined
    : setTimeout(() => {
        expired = !signal.aborted;
        controller.abort(timedOut());
      }, ms).unref();
  let cleared = false;
  return {
    signal,
    get timedOut() {
      return expired;
    },
    clear() {
      if (cleared) return;
      cleared = true;
      clearTimeout(timer);
      for (const parent of followed) parent.removeEventListener('abort', onParentAbort);
    },
  };
}
