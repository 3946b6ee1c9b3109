import pg from 'pg';

/** What pg's `query_timeout` fails a statement with. */
const isReadTimeout = (err: unknown): boolean => err instanceof Error && err.message === 'Query read timeout';

/**
 * pg's client (given to the pool as its documented `Client` option), closing its connection when
 * `query_timeout` gives up on a statement. pg fails the statement but keeps the connection waiting for
 * the answer, so every later statement on it would time out too; closed, it leaves the pool when released
 * and the next statement gets a fresh one. `pool.query` needs none of this: it releases a failed client
 * with its error, which closes it.
 */
export class ClosingOnTimeoutClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: passes every one of pg's overloads through unchanged
  override query(...args: unknown[]): any {
    const result = (pg.Client.prototype.query as (...args: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (isReadTimeout(err)) void this.end();
      });
    }
    return result;
  }
}
