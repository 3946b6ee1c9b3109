/**
 * A value now or later. The hot paths answer most requests synchronously (in-memory rate limits, a
 * verified key already cached, a free call's charge): an `await` or an async function there would still
 * cost a promise and a microtask hop each, a few percent of a lookup's CPU together.
 */
export type Maybe<T> = T | Promise<T>;

/** `next(value)`, now when `value` is here, else once it settles (a rejection passes through). */
export const andThen = <T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> =>
  value instanceof Promise ? value.then(next) : next(value);
