import type { Pool, PoolClient } from 'pg';

/** How often the watchdog looks at the pool's connections. */
export const STALL_CHECK_INTERVAL_MS = 50;

/**
 * How long a statement waits for an answer before its connection is given up: a little longer than the
 * server takes to cancel it (`statement_timeout`), so that a cancelled statement fails as cancelled.
 */
export const stallAfterMs = (statementTimeoutMs: number): number => statementTimeoutMs + 100;

/**
 * The longest a statement can wait in all: a look first finds it waiting up to one interval after it was
 * sent, and gives up on it at the first look `stallAfterMs` after that one.
 */
export const longestStatementWaitMs = (statementTimeoutMs: number): number =>
  stallAfterMs(statementTimeoutMs) + 2 * STALL_CHECK_INTERVAL_MS;

/** One connection's progress: answers counted as they arrive, compared at each look. */
interface Watched {
  answers: number;
  seen: number;
  /**
   * Undefined while the connection is not waiting; else the look that first found its current statement
   * sent, at most one interval after it was.
   */
  waitingSince: number | undefined;
}

/** pg's client, with the parts of it the watchdog reads. */
interface Observable {
  readyForQuery: boolean;
  connection: { on(event: 'readyForQuery', listener: () => void): void; stream: { destroy(error?: Error): void } };
}

/**
 * Gives up on a statement the server has not answered within `stallMs`, as pg's `query_timeout` does,
 * with one timer for the whole pool instead of one per statement: the connection is closed, so the
 * statement fails with "Query read timeout" (a 503, see unavailable.ts) and the pool opens a new one.
 * The server cancels slow statements itself (`statement_timeout`); this is for a server or network that
 * stopped answering altogether, which the server cannot notice.
 *
 * Why not `query_timeout`: with its timer, set and cleared around every statement, V8 kept what requests
 * on PostgreSQL allocate past their end: each scavenge promoted ~1 MB instead of ~5 KB to the old
 * generation, where full collections of cipgate's whole heap cleared it every 1.5–2 s under load
 * (bench/README.md, thirty-fourth round). pg's own pool did the same without cipgate, and so, in some
 * runs, did a bare timer around each query. Here a statement costs one listener call that counts an
 * answer.
 *
 * @example
 * const stop = watchStalls(pool, stallAfterMs(statementTimeoutMs));
 * await pool.end(); stop();
 */
export function watchStalls(pool: Pool, stallMs: number): () => void {
  const watched = new Map<PoolClient, Watched>();
  pool.on('acquire', (client) => {
    if (watched.has(client)) return;
    const entry: Watched = { answers: 0, seen: 0, waitingSince: undefined };
    (client as unknown as Observable).connection.on('readyForQuery', () => {
      entry.answers += 1;
    });
    watched.set(client, entry);
  });
  pool.on('remove', (client) => watched.delete(client));
  const timer = setInterval(() => {
    const now = performance.now();
    for (const [pooled, entry] of watched) {
      const client = pooled as unknown as Observable;
      if (client.readyForQuery) {
        entry.waitingSince = undefined;
      } else if (entry.answers !== entry.seen || entry.waitingSince === undefined) {
        // A statement sent since the last look (an answer came, or the connection was idle then).
        entry.waitingSince = now;
      } else if (now - entry.waitingSince >= stallMs) {
        watched.delete(pooled);
        client.connection.stream.destroy(new Error(`Query read timeout: no answer within ${stallMs} ms`));
      }
      entry.seen = entry.answers;
    }
  }, STALL_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
