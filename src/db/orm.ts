import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { type AbstractSqlConnection, SqliteDriver } from '@mikro-orm/sql';
import { CompiledQuery, type QueryResult } from 'kysely';
import { migrationsList } from './migrations/index.js';
import { CachedNodeSqliteDialect } from './node-sqlite-dialect.js';

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
  close(): Promise<void>;
}

/** `postgres://…` selects PostgreSQL; `file:<path>` (or `file::memory:`) the embedded node:sqlite database. */
export function dialectOf(databaseUrl: string): Dialect {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgresql' : 'sqlite';
}

function ormOptions(databaseUrl: string): Parameters<typeof MikroORM.init>[0] {
  const common = {
    // Every table is read and written with hand-written SQL through `query`/`run` below (one statement
    // text per dialect-neutral query, bound parameters); MikroORM provides the connections, the
    // transactions and the migrations, so no entity metadata is declared.
    entities: [],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList, tableName: 'cipgate_migrations', snapshot: false, silent: true },
    debug: false,
    allowGlobalContext: false,
  };
  if (dialectOf(databaseUrl) === 'postgresql') {
    return { ...common, driver: PostgreSqlDriver, clientUrl: databaseUrl, pool: { max: 10 } };
  }
  const path = databaseUrl.slice('file:'.length);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  return { ...common, driver: SqliteDriver, dbName: path, driverOptions: new CachedNodeSqliteDialect(path) };
}

/** Opens the database and brings its schema up to date with the committed migrations. */
export async function openDatabase(databaseUrl: string): Promise<Database> {
  const orm = await MikroORM.init(ormOptions(databaseUrl));
  const dialect = dialectOf(databaseUrl);
  const connection = orm.em.getConnection() as AbstractSqlConnection;
  if (dialect === 'sqlite') {
    // WAL lets readers run beside the single writer; the busy timeout makes a second process sharing the
    // file wait for the write lock instead of failing with SQLITE_BUSY.
    await connection.execute('pragma journal_mode = wal');
    await connection.execute('pragma busy_timeout = 10000');
    await connection.execute('pragma synchronous = normal');
  }
  await orm.migrator.up();

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
    close: () => orm.close(true),
  };
}
