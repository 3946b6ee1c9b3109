import type { Reader } from './values.js';

/** Where data is kept: the database, its replica, and Redis for counters shared between processes. */
export interface DatabaseSettings {
  databaseUrl: string;
  /** A read replica for public lookups and search; writes and the ledger always use DATABASE_URL. */
  databaseReadUrl: string | undefined;
  /** Bounds on every wait for the database, so a dead or stalled one gives fast 503s (src/platform/db/orm.ts). */
  database: { poolMax: number; acquireTimeoutMs: number; statementTimeoutMs: number };
  redisUrl: string | undefined;
  /** Create a labelled sandbox partner (and demo names) on first start. */
  sandboxSeed: boolean;
}

const POSTGRES = /^postgres(ql)?:\/\/.+/;

export function databaseSection(read: Reader): DatabaseSettings {
  const databaseUrl = read.str('DATABASE_URL') ?? 'file:./data/cipgate.db';
  if (!POSTGRES.test(databaseUrl) && !/^file:.+/.test(databaseUrl)) {
    read.problem(`DATABASE_URL must be postgres://… or file:<path>, got "${databaseUrl}"`);
  }
  const embedded = databaseUrl.startsWith('file:');
  const databaseReadUrl = read.str('DATABASE_READ_URL');
  if (databaseReadUrl !== undefined && (!POSTGRES.test(databaseReadUrl) || embedded)) {
    read.problem('DATABASE_READ_URL must be a postgres://… replica of a PostgreSQL DATABASE_URL');
  }
  return {
    databaseUrl,
    databaseReadUrl,
    database: {
      poolMax: read.int('DATABASE_POOL_MAX', 10, 1, 1000),
      acquireTimeoutMs: read.int('DATABASE_ACQUIRE_TIMEOUT_MS', 800, 50, 600_000),
      statementTimeoutMs: read.int('DATABASE_STATEMENT_TIMEOUT_MS', 1000, 50, 3_600_000),
    },
    redisUrl: read.url('REDIS_URL', ['redis:', 'rediss:']),
    // The embedded database is a local trial, which needs a partner to call with; a deployment makes its own.
    sandboxSeed: read.bool('SANDBOX_SEED', embedded),
  };
}
