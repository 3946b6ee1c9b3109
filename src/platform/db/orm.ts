import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import {
  type AbstractSqlConnection,
  type AbstractSqlDriver,
  type SqlEntityManager,
  SqliteDriver,
  type SqlOptions,
} from '@mikro-orm/sql';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import { isoTimestamp } from '../iso-timestamp.js';
import { allEntities, SchemaNamingStrategy } from './entities/index.js';
import { migrationsList } from './migrations/index.js';
import { CachedNodeSqliteDialect, type SqliteNow } from './node-sqlite-dialect.js';
import { earlierFailure, recordFailure } from './request-scope.js';
import { sqliteMappedType } from './sqlite-datetime.js';
import { StatementNames } from './statement-names.js';
import { describeDatabaseError, isDatabaseUnavailable, maskDatabaseUrl } from './unavailable.js';

export type Dialect = 'sqlite' | 'postgresql';

export interface Database {
  /** For the entity manager: `db.orm.em.fork()` per call (no global context). */
  orm: MikroORM<AbstractSqlDriver, SqlEntityManager>;
  dialect: Dialect;
  /** Runs a statement and returns its rows (`RETURNING` works on both dialects). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs a read outside any transaction and returns each row as an array of its column values, in the
   * order of the select list: cheaper for both drivers to build than objects, for the hottest reads. On
   * PostgreSQL each text is a named prepared statement (statement-names.ts).
   */
  queryRows<T extends unknown[] = unknown[]>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and returns the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** Runs `fn` in one transaction; statements inside must use the `tx` handle. */
  transaction<T>(fn: (tx: Pick<Database, 'query' | 'run'>) => Promise<T>): Promise<T>;
  /** Resolves when the database answers within `timeoutMs`; readiness probes must not hang on it. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

type Handle = Pick<Database, 'query' | 'run'>;
type Trx = Parameters<Parameters<AbstractSqlConnection['transactional']>[0]>[0];
/** MikroORM's Kysely client, or a transaction on it. */
type Executor = Pick<ReturnType<AbstractSqlConnection['getClient']>, 'executeQuery'>;
type CompiledStatement = Parameters<Executor['executeQuery']>[0] & { sql: string };

/**
 * A statement with bound parameters in the shape Kysely executes (what its `CompiledQuery.raw` builds,
 * and what MikroORM's own `stream()` builds by hand): Kysely reaches us only through MikroORM.
 */
const rawStatement = (sql: string, parameters: readonly unknown[]): CompiledStatement => ({
  sql,
  parameters,
  query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] },
  queryId: { queryId: '' },
});

/** Statement texts seen, with their PostgreSQL placeholders: the service runs a bounded set of texts. */
const numbered = new LRUCache<string, string>({ max: 2000 });

/**
 * `?` placeholders as PostgreSQL takes them (`$1`, `$2`, …), read as MikroORM's `formatQuery` reads them:
 * every `?` is a value. Its `??` (identifier) and `\?` (literal) forms are not used here, so they are refused
 * rather than guessed at.
 */
export function numberedPlaceholders(sql: string): string {
  let numberedSql = numbered.get(sql);
  if (numberedSql === undefined) {
    if (sql.includes('??') || sql.includes('\\?')) throw new Error('SQL with ?? or \\? placeholders is not supported');
    let n = 0;
    numberedSql = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, numberedSql);
  }
  return numberedSql;
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

/**
 * The longest a PostgreSQL statement waits for its answer: the client gives up (pg's `query_timeout`) a
 * little after the server cancels it (`statement_timeout`), so that a cancelled statement fails as
 * cancelled, and one on a server or network that stopped answering fails as unavailable.
 */
export const clientStatementTimeoutMs = (statementTimeoutMs: number): number => statementTimeoutMs + 200;

/** No limits: for migrations and the admin CLI, whose statements may legitimately take long. */
const UNLIMITED: DatabaseLimits = { poolMax: 10, acquireTimeoutMs: 0, statementTimeoutMs: 0 };

async function ormOptions(databaseUrl: string, limits: DatabaseLimits): Promise<SqlOptions> {
  const common = {
    // The entities describe every table (entities.test.ts proves them equal to the migrations, which
    // stay the source of the schema). CRUD and admin paths use the entity manager; hot paths and the
    // ledger run SQL through `query`/`run` below.
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
    // cannot notice, and then closes that connection. A transaction left idle (a stalled caller)
    // releases its locks after a while.
    const timeouts = statementTimeoutMs
      ? {
          statement_timeout: statementTimeoutMs,
          query_timeout: clientStatementTimeoutMs(statementTimeoutMs),
          idle_in_transaction_session_timeout: 5 * statementTimeoutMs,
        }
      : {};
    // The driver (and pg) load only for PostgreSQL: an embedded-SQLite process never needs them.
    const [{ PostgreSqlDriver }, { ClosingOnTimeoutClient }] = await Promise.all([
      import('@mikro-orm/postgresql'),
      import('./pg-client.js'),
    ]);
    return {
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: databaseUrl,
      pool: { max: limits.poolMax },
      driverOptions: {
        Client: ClosingOnTimeoutClient,
        ...(acquireTimeoutMs ? { connectionTimeoutMillis: acquireTimeoutMs } : {}),
        ...timeouts,
      },
    };
  }
  const path = databaseUrl.slice('file:'.length);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  return {
    ...common,
    driver: SqliteDriver,
    dbName: path,
    driverOptions: new CachedNodeSqliteDialect(path, STARTUP_BUSY_TIMEOUT_MS),
    discovery: { getMappedType: sqliteMappedType },
  };
}

// Any constant shared by every cipgate process on one database ("cipg" in ASCII).
const MIGRATION_LOCK = 0x63697067;
/** How long SQLite statements wait for another process's lock while a process starts and migrates. */
const STARTUP_BUSY_TIMEOUT_MS = 10_000;

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
  return reachable('DATABASE_URL', databaseUrl, () => open(databaseUrl, limits, true));
}

/**
 * Opens a read replica of the primary (DATABASE_READ_URL) for reads that may lag it a little (public
 * lookups, search). Its schema is the primary's, replicated: nothing is migrated through it.
 */
export async function openReadDatabase(databaseUrl: string, limits: DatabaseLimits): Promise<Database> {
  return reachable('DATABASE_READ_URL', databaseUrl, () => open(databaseUrl, limits, false));
}

async function reachable(setting: string, databaseUrl: string, opening: () => Promise<Database>): Promise<Database> {
  try {
    return await opening();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    throw new DatabaseUnreachableError(
      `Cannot reach the database at ${maskDatabaseUrl(databaseUrl)} (${setting}): ${describeDatabaseError(err)}`,
      { cause: err },
    );
  }
}

async function open(databaseUrl: string, limits: DatabaseLimits, migrating: boolean): Promise<Database> {
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'postgresql' && migrating) {
    // Migrations on their own short-lived connection without the serving limits (see migrate()); a
    // dead server still fails fast there, on the acquire timeout.
    const migrations = await MikroORM.init<AbstractSqlDriver, SqlEntityManager>(
      // Two connections: the migrator reads its table's existence outside the transaction it is given.
      await ormOptions(databaseUrl, { ...UNLIMITED, poolMax: 2, acquireTimeoutMs: limits.acquireTimeoutMs }),
    );
    try {
      await migrate(migrations, dialect);
    } finally {
      await migrations.close(true);
    }
  }
  const options = await ormOptions(databaseUrl, limits);
  const orm = await MikroORM.init<AbstractSqlDriver, SqlEntityManager>(options);
  const sqlite = options.driverOptions instanceof CachedNodeSqliteDialect ? options.driverOptions : undefined;
  const connection = orm.em.getConnection() as AbstractSqlConnection;
  if (dialect === 'sqlite') {
    try {
      // WAL lets readers run beside the single writer. Until it has migrated, the connection waits long
      // for the file's lock (STARTUP_BUSY_TIMEOUT_MS, set when it opened: another process may be
      // switching to WAL or migrating); then requests wait only the acquire timeout and fail with
      // SQLITE_BUSY, which callers answer with a 503.
      await connection.execute('pragma journal_mode = wal');
      await connection.execute('pragma synchronous = normal');
      // SQLite's default page cache is 2 MiB: a large batch then re-reads index pages from the OS each
      // call. Pages are only resident once read, so idle memory is unchanged.
      await connection.execute('pragma cache_size = -65536');
      if (migrating) await migrate(orm, dialect);
      if (limits.acquireTimeoutMs) await connection.execute(`pragma busy_timeout = ${limits.acquireTimeoutMs}`);
    } catch (err) {
      await orm.close(true);
      throw err;
    }
  }

  // Callers pass JS values: node:sqlite binds neither booleans nor Dates, and an undefined would not
  // survive MikroORM's formatting on PostgreSQL.
  const sqliteBooleans = dialect === 'sqlite';
  const converted = (v: unknown): boolean =>
    v === undefined || v instanceof Date || (typeof v === 'boolean' && sqliteBooleans);
  const convert = (v: unknown): unknown =>
    !converted(v) ? v : v === undefined ? null : v instanceof Date ? isoTimestamp(v.getTime()) : Number(v);
  // A list whose values all bind as they are is not copied: an import's statement binds thousands.
  const bind = (params: readonly unknown[]): readonly unknown[] =>
    params.some(converted) ? params.map(convert) : params;
  // Values stay bound on both databases, through MikroORM's own Kysely client. MikroORM's execute()
  // would inline them into the SQL text (Platform.formatQuery): on SQLite every call would then be a new
  // statement text, defeating the prepared-statement cache (node-sqlite-dialect.ts); on PostgreSQL the
  // server would parse and plan thousands of escaped literals for a large batch or an import where one
  // array parameter does.
  const text = dialect === 'postgresql' ? numberedPlaceholders : (sql: string) => sql;
  // queryRows on PostgreSQL: straight to MikroORM's pool (its limits), asking pg for arrays and naming
  // the statement so that each connection plans it once (statement-names.ts). Kysely would hand pg the
  // text alone, and pg would build an object per row.
  const pool = dialect === 'postgresql' ? await nativePool(connection) : undefined;
  const names = new StatementNames();
  const pooledRows = async <T extends unknown[]>(sql: string, values: unknown[]): Promise<T[]> => {
    const send = async (name: string | undefined) =>
      (await (pool as Pool).query<T>({ name, text: sql, values, rowMode: 'array' })).rows;
    const name = names.of(sql);
    try {
      return await send(name);
    } catch (err) {
      if (name === undefined) throw err;
      if (names.refused(err)) return send(undefined);
      if (names.stale(sql, name, err)) return send(names.of(sql));
      throw err;
    }
  };
  // queryRows on SQLite while a transaction holds the connection: after it, on Kysely's connection.
  const queuedRows = <T extends unknown[]>(sql: string, params: readonly unknown[]): Promise<T[]> =>
    connection
      .getClient()
      .connection()
      .execute(async () => {
        const now = sqlite?.now;
        if (!now) throw new Error('The SQLite database is closed');
        return now.rows<T>(sql, params);
      });
  const makeHandle = (trx?: Trx): Handle => {
    const client: Executor = trx ?? connection.getClient();
    // Outside a transaction, a SQLite statement with no transaction open before it runs at once
    // (node-sqlite-dialect.ts); otherwise it queues on Kysely's connection as every statement did.
    const runsNow = (): SqliteNow | undefined => {
      const now = trx ? undefined : sqlite?.now;
      return now && !now.inTransaction ? now : undefined;
    };
    const exec = async (sql: string, params: readonly unknown[]) => {
      const now = runsNow();
      if (now) return now.execute(sql, bind(params));
      return client.executeQuery(rawStatement(text(sql), bind(params)));
    };
    const queued = async <T>(sql: string, params: readonly unknown[]): Promise<T[]> => {
      try {
        return (await exec(sql, params)).rows as T[];
      } catch (err) {
        recordFailure(err);
        throw err;
      }
    };
    // A SQLite read that runs at once answers in an already settled promise: one microtask hop for the
    // caller's await, not the three of an async function awaiting another (a public lookup's statement).
    // A request whose database already failed it gets that failure at once (request-scope.ts).
    const query = <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> => {
      const failed = earlierFailure();
      if (failed !== undefined) return Promise.reject(failed);
      const now = runsNow();
      if (!now) return queued(sql, params);
      try {
        return Promise.resolve(now.execute(sql, bind(params)).rows as T[]);
      } catch (err) {
        recordFailure(err);
        return Promise.reject(err);
      }
    };
    return {
      query,
      run: async (sql: string, params: readonly unknown[] = []) => {
        const failed = earlierFailure();
        if (failed !== undefined) throw failed;
        try {
          return Number((await exec(sql, params)).numAffectedRows ?? 0);
        } catch (err) {
          recordFailure(err);
          throw err;
        }
      },
    };
  };
  const root = makeHandle();
  const queryRows = <T extends unknown[]>(sql: string, params: readonly unknown[] = []): Promise<T[]> => {
    const failed = earlierFailure();
    if (failed !== undefined) return Promise.reject(failed);
    const failing = (err: unknown): Promise<never> => {
      recordFailure(err);
      return Promise.reject(err);
    };
    try {
      if (pool) return pooledRows<T>(text(sql), bind(params) as unknown[]).catch(failing);
      const now = sqlite?.now;
      // As `query`: a read with no transaction open runs at once and answers in a settled promise.
      if (now && !now.inTransaction) return Promise.resolve(now.rows<T>(sql, bind(params)));
      return queuedRows<T>(sql, bind(params)).catch(failing);
    } catch (err) {
      return failing(err);
    }
  };
  return {
    orm,
    dialect,
    ...root,
    queryRows,
    transaction: async (fn) => {
      const failed = earlierFailure();
      if (failed !== undefined) throw failed;
      try {
        return await connection.transactional((trx) => fn(makeHandle(trx)));
      } catch (err) {
        recordFailure(err);
        throw err;
      }
    },
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

/** MikroORM's pg pool, through its PostgreSQL connection's public `getNativeClient`. */
async function nativePool(connection: AbstractSqlConnection): Promise<Pool> {
  const { PostgreSqlConnection } = await import('@mikro-orm/postgresql');
  if (!(connection instanceof PostgreSqlConnection)) throw new Error('Expected a MikroORM PostgreSqlConnection');
  return connection.getNativeClient();
}
