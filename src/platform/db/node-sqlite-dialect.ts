import type { StatementSync } from 'node:sqlite';
import { NodeSqliteDialect } from '@mikro-orm/sql';

/**
 * MikroORM exports its node:sqlite dialect but not the Kysely `SqliteDialect` it extends, whose
 * constructor takes the database factory. Taking the class from there keeps us on MikroORM's own copy
 * of Kysely instead of a second, separately versioned dependency.
 */
const SqliteDialect = Object.getPrototypeOf(NodeSqliteDialect) as new (config: {
  database: () => Promise<unknown>;
}) => NodeSqliteDialect;
if (typeof SqliteDialect !== 'function' || !('createDriver' in SqliteDialect.prototype))
  throw new Error('@mikro-orm/sql: NodeSqliteDialect no longer extends a Kysely dialect');

/**
 * A statement whose text starts with this comment answers its rows as arrays of column values, in the
 * order of its select list, as the bench's baseline reads them: node:sqlite builds an array for a row
 * faster than an object with named properties (a 1000-row reverse batch, 4 columns: ~1.3 against ~1.8 ms
 * in a micro-benchmark), and so does pg (orm.ts). For the hottest statements, whose callers read columns
 * by position; their column names must differ (inside a PostgreSQL transaction, arrays are made from
 * the object rows).
 */
export const ROWS_AS_ARRAYS = '/* rows as arrays */ ';

/** What Kysely's SQLite connection answers for a statement: rows of a reader, else the rows changed. */
export interface SqliteResult {
  rows: unknown[];
  numAffectedRows?: bigint;
}

/**
 * The connection's statements, run at once. Kysely queues every statement behind a mutex (one
 * connection) and reaches it through several layers of promises, ~2.4 µs a statement; a statement that
 * comes while no transaction is open has nothing to wait for, so the caller may run it here instead.
 */
export interface SqliteNow {
  /** True while a transaction is open on the connection: statements must then queue behind it. */
  readonly inTransaction: boolean;
  /** Runs one statement as Kysely's SQLite connection runs it. */
  execute(sql: string, params: readonly unknown[]): SqliteResult;
}

/**
 * Kysely dialect for `node:sqlite`, like MikroORM's `NodeSqliteDialect` but keeping prepared statements.
 *
 * The stock bridge calls `db.prepare(sql)` on every query; profiles of the public lookups on the
 * embedded database put that compile at ~13 % of the server's CPU. The service runs a small, fixed set
 * of statement texts, so each is compiled once and reused (bounded, oldest first out).
 */
export class CachedNodeSqliteDialect extends SqliteDialect {
  readonly #opened: { now?: SqliteNow };

  /**
   * `busyTimeoutMs` applies from the connection's first statement: MikroORM reads the schema while it
   * connects, before any pragma can be sent, and without a timeout that read fails at once with
   * SQLITE_BUSY while another process holds the file's lock (one of six processes starting together on a
   * fresh database did, in CI).
   */
  constructor(dbName: string, busyTimeoutMs: number, maxStatements = 500) {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const opened: { now?: SqliteNow } = {};
    super({
      database: async () => {
        const db = new DatabaseSync(dbName, { timeout: busyTimeoutMs });
        // Each text compiled once, with whether it answers rows (as Kysely's driver asks).
        const statements = new Map<string, { stmt: StatementSync; reader: boolean }>();
        const statement = (sql: string): { stmt: StatementSync; reader: boolean } => {
          let cached = statements.get(sql);
          if (!cached) {
            const stmt = db.prepare(sql);
            const arrays = sql.startsWith(ROWS_AS_ARRAYS);
            if (arrays) stmt.setReturnArrays(true);
            const reader = arrays || /^\s*(select|pragma|explain|with)/i.test(sql) || /\breturning\b/i.test(sql);
            cached = { stmt, reader };
            if (statements.size >= maxStatements) statements.delete(statements.keys().next().value as string);
            statements.set(sql, cached);
          }
          return cached;
        };
        const database = {
          prepare(sql: string) {
            const { stmt, reader } = statement(sql);
            return {
              reader,
              all: (params: readonly unknown[]) => stmt.all(...(params as never[])),
              run: (params: readonly unknown[]) => stmt.run(...(params as never[])),
              get: (params: readonly unknown[]) => stmt.get(...(params as never[])),
              iterate: (params: readonly unknown[]) => stmt.iterate(...(params as never[])),
            };
          },
          close() {
            opened.now = undefined;
            statements.clear();
            db.close();
          },
        };
        opened.now = {
          get inTransaction() {
            return db.isTransaction;
          },
          // As Kysely's SqliteConnection.executeQuery does it.
          execute(sql, params) {
            const { stmt, reader } = statement(sql);
            if (reader) return { rows: stmt.all(...(params as never[])) };
            const { changes } = stmt.run(...(params as never[]));
            return { rows: [], numAffectedRows: BigInt(changes) };
          },
        };
        return database;
      },
    });
    this.#opened = opened;
  }

  /** The open connection's statements, run at once (undefined before it opens and after it closes). */
  get now(): SqliteNow | undefined {
    return this.#opened.now;
  }
}
