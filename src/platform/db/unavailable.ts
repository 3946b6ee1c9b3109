/**
 * Recognises failures that mean "the database cannot answer right now" (unreachable, stalled, out of
 * connections, timed out, locked), as opposed to a bug or bad data. Callers answer these with a 503 so
 * that clients retry later and load balancers do not take the instance for broken.
 */

/** The message callers see: no host names, SQL or driver details. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'Database unavailable, please retry shortly';

// SQLSTATE classes: 08 connection exception, 53 insufficient resources (too many connections),
// 57P01-57P03 shutdown / cannot connect now, 57014 statement_timeout, 55P03 lock_timeout.
const PG_STATES = /^(08...|53...|57P0[1-3]|57014|55P03)$/;
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// pg and pg-pool raise these as plain Errors without a code.
const PG_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end)/;
// SQLite primary result codes (the low byte of extended ones): 5 SQLITE_BUSY, 6 SQLITE_LOCKED.
const SQLITE_BUSY = new Set([5, 6]);

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 8) return false;
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (PG_STATES.test(e.code) || NET_CODES.has(e.code))) return true;
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && SQLITE_BUSY.has(e.errcode & 0xff)) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true;
  // Wrappers keep the driver's error somewhere: GraphQL's originalError, MikroORM's and Node's cause,
  // AggregateError's errors (one per address a host name resolved to).
  const inner = [
    (error as { originalError?: unknown }).originalError,
    (error as { cause?: unknown }).cause,
    ...(Array.isArray(e.errors) ? e.errors : []),
  ];
  return inner.some((next) => next !== error && isDatabaseUnavailable(next, depth + 1));
}

/** A short reason for an operator: the driver's own words, or the first of several connection attempts. */
export function describeDatabaseError(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown; errors?: unknown };
  if (typeof e?.message === 'string' && e.message) return e.message;
  if (Array.isArray(e?.errors) && e.errors.length) return describeDatabaseError(e.errors[0]);
  return typeof e?.code === 'string' ? e.code : String(error);
}

/** The URL with its password masked, for messages an operator may paste somewhere. */
export function maskDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return databaseUrl.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
