import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { type AbstractSqlConnection, SqliteDriver } from '@mikro-orm/sql';
import { CompiledQuery, type QueryResult } from 'kysely';
import { allEntities, SchemaNamingStrategy } from './entities/index.js';
import { migrationsList } from './migrations/index.js';
import { CachedNodeSqliteDialect } from './node-sqlite-dialect.js';
import { describeDatabaseError, isDatabaseUnavailable, maskDatabaseUrl } from './unavailable.js';

export type Dialect = 'sqlite' | 'postgresql';

export interface Database {
  orm: Awaited<ReturnType<typeof MikroORM.init>>;
  dialect: Dialect;
  /** Runs a statement and returns its rows (`RETURNING` works on both dialects). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a statement and returns the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Runs `fn` in one transaction; statements inside must use the `tx` handle. */
  transaction<T>(fn: (tx: Pick<Database, 'query' | 'run'>) => Promise<T>): Promise<T>;
  /** Resolves when the database answers within `timeoutMs`; readiness probes must not hang on it. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `postgres://…` selects PostgreSQL; `file:<path>` (or `file::memory:`) the embedded node:sqlite database. */
export function dialectOf(databaseUrl: string): Dialect {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgresql' : 'sqlite';
}

/** How long the service waits on the database before answering 503 instead (0 = no limit). */
export interface DatabaseLimits {
  poolMax: number;
  /** Waiting for a pooled connection or for a new one to connect (PostgreSQL), or for SQLite's write lock. */
  acquireTimeoutMs: number;
  /** One statement, enforced by the server and, for a stalled server or network, by the client too. */
  statementTimeoutMs: number;
}

/** No limits: for migrations and the admin CLI, whose statements may legitimately take long. */
const UNLIMITED: DatabaseLimits = { poolMax: 10, acquireTimeoutMs: 0, statementTimeoutMs: 0 };

function ormOptions(databaseUrl: string, limits: DatabaseLimits): Parameters<typeof MikroORM.init>[0] {
  const common = {
    // The entities describe every table (entities.test.ts proves them equal to the migrations, which
    // stay the source of the schema); reads and writes still go through `query`/`run` below.
    entities: allEntities,
    namingStrategy: SchemaNamingStrategy,
    extensions: [Migrator],
    migrations: { migrationsList, tableName: 'cipgate_migrations', snapshot: false, silent: true },
    debug: false,
    allowGlobalContext: false,
  };
  if (dialectOf(databaseUrl) === 'postgresql') {
    const { acquireTimeoutMs, statementTimeoutMs } = limits;
    // pg options: the server cancels a slow statement (the connection stays usable); the client gives
    // up slightly later on a server or network that stopped answering altogether, which the server
    // cannot notice. A transaction left idle (a stalled caller) releases its locks after a while.
    const timeouts = statementTimeoutMs
      ? {
          statement_timeout: statementTimeoutMs,
          query_timeout: statementTimeoutMs + 200,
          idle_in_transaction_session_timeout: 5 * statementTimeoutMs,
        }
      : {};
    return {
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: databaseUrl,
      pool: { max: limits.poolMax },
      driverOptions: { ...(acquireTimeoutMs ? { connectionTimeoutMillis: acquireTimeoutMs } : {}), ...timeouts },
    };
  }
  const path = databaseUrl.slice('file:'.length);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  return { ...common, driver: SqliteDriver, dbName: path, driverOptions: new CachedNodeSqliteDialect(path) };
}

// Any constant shared by every cipgate process on one database ("cipg" in ASCII).
const MIGRATION_LOCK = 0x63697067;

/**
 * Brings the schema up to date while holding a database-wide lock, so that any number of processes
 * starting together on a fresh database apply each migration once instead of racing (and crashing) on
 * `create table`. PostgreSQL: a transaction-scoped advisory lock taken first in the transaction that
 * runs every migration, on its own unlimited connection (a migration may take longer than a request's
 * statement timeout). SQLite has no such lock: a process that loses the race to the file's write lock
 * (SQLITE_BUSY, or a table the winner just created) rolls back and tries again, then finds nothing to do.
 */
async function migrate(orm: Database['orm'], dialect: Dialect): Promise<void> {
  const connection = orm.em.getConnection() as AbstractSqlConnection;
  if (dialect === 'postgresql') {
    await connection.transactional(async (trx) => {
      await connection.execute(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`, [], 'run', trx);
      await orm.migrator.up({ transaction: trx });
    });
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await orm.migrator.up();
      return;
    } catch (err) {
      const lostRace = isDatabaseUnavailable(err) || /already exists/i.test(String((err as Error)?.message));
      if (!lostRace || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
    }
  }
}

/** Thrown when the database cannot be reached at start-up; the message names the setting to check. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

/**
 * Opens the database and brings its schema up to date with the committed migrations. `limits` bound
 * every wait of a serving process; without them (the admin CLI) statements may take as long as needed.
 */
export async function openDatabase(databaseUrl: string, limits: DatabaseLimits = UNLIMITED): Promise<Database> {
  try {
    return await open(databaseUrl, limits);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    throw new DatabaseUnreachableError(
      `Cannot reach the database at ${maskDatabaseUrl(databaseUrl)} (DATABASE_URL): ${describeDatabaseError(err)}`,
      { cause: err },
    );
  }
}

async function open(databaseUrl: string, limits: DatabaseLimits): Promise<Database> {
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'postgresql') {
    // Migrations on their own short-lived connection without the serving limits (see migrate()); a
    // dead server still fails fast there, on the acquire timeout.
    const migrations = await MikroORM.init(
      // Two connections: the migrator reads its table's existence outside the transaction it is given.
      ormOptions(databaseUrl, { ...UNLIMITED, poolMax: 2, acquireTimeoutMs: limits.acquireTimeoutMs }),
    );
    try {
      await migrate(migrations, dialect);
    } finally {
      await migrations.close(true);
    }
  }
  const orm = await MikroORM.init(ormOptions(databaseUrl, limits));
  const connection = orm.em.getConnection() as AbstractSqlConnection;
  if (dialect === 'sqlite') {
    try {
      // WAL lets readers run beside the single writer. Migrations wait long for the file's write lock
      // (another process may be migrating); requests wait only the acquire timeout, then fail with
      // SQLITE_BUSY, which callers answer with a 503.
      await connection.execute('pragma journal_mode = wal');
      await connection.execute('pragma busy_timeout = 10000');
      await connection.execute('pragma synchronous = normal');
      await migrate(orm, dialect);
      if (limits.acquireTimeoutMs) await connection.execute(`pragma busy_timeout = ${limits.acquireTimeoutMs}`);
    } catch (err) {
      await orm.close(true);
      throw err;
    }
  }

  // node:sqlite binds neither booleans nor Dates; PostgreSQL wants real booleans. Callers pass JS values.
  const bind = (params: unknown[]) =>
    params.map((v) =>
      v instanceof Date ? v.toISOString() : typeof v === 'boolean' && dialect === 'sqlite' ? (v ? 1 : 0) : v,
    );
  // Statements go to the driver with real bound parameters (MikroORM's execute() would inline them into
  // the SQL text, which costs a formatting pass and defeats the server's plan cache). SQL is written
  // with `?` placeholders; PostgreSQL's `$n` form is derived once per statement text.
  const native = new Map<string, string>();
  const toNative = (sql: string): string => {
    if (dialect === 'sqlite') return sql;
    let converted = native.get(sql);
    if (converted === undefined) {
      let n = 0;
      converted = sql.replace(/\?/g, () => `$${++n}`);
      if (native.size < 10_000) native.set(sql, converted);
    }
    return converted;
  };
  type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };
  const makeHandle = (executor: Executor): Pick<Database, 'query' | 'run'> => ({
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await executor.executeQuery(CompiledQuery.raw(toNative(sql), bind(params)))).rows as T[],
    run: async (sql: string, params: unknown[] = []) =>
      Number((await executor.executeQuery(CompiledQuery.raw(toNative(sql), bind(params)))).numAffectedRows ?? 0),
  });
  const root = makeHandle(connection.getClient());
  return {
    orm,
    dialect,
    ...root,
    transaction: (fn) => connection.transactional((trx) => fn(makeHandle(trx as unknown as Executor))),
    async ping(timeoutMs = 1000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('Query read timeout (readiness probe)')), timeoutMs);
      });
      try {
        await Promise.race([root.query('select 1 as ok'), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => orm.close(true),
  };
}
