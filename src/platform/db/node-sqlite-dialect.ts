import type { StatementSync } from 'node:sqlite';
// Pinned to the version @mikro-orm/sql depends on, so there is one copy of Kysely (package.json).
import { SqliteDialect } from 'kysely';
import { LRUCache } from 'lru-cache';

/** What Kysely's SQLite connection answers for a statement: rows of a reader, else the rows changed. */
export interface SqliteResult {
  rows: unknown[];
  numAffectedRows?: bigint;
}

/**
 * The connection's statements, run at once. Kysely queues every statement behind a mutex (one
 * connection) and reaches it through several layers of promises; a statement that comes while no
 * transaction is open has nothing to wait for, so the caller may run it here instead.
 */
export interface SqliteNow {
  /** True while a transaction is open on the connection: statements must then queue behind it. */
  readonly inTransaction: boolean;
  /** Runs one statement as Kysely's SQLite connection runs it. */
  execute(sql: string, params: readonly unknown[]): SqliteResult;
  /** Runs a read and answers its rows as arrays of column values (`StatementSync#setReturnArrays`). */
  rows<T extends unknown[]>(sql: string, params: readonly unknown[]): T[];
}

interface Prepared {
  stmt: StatementSync;
  /** Whether it answers rows (as Kysely's driver asks). */
  reader: boolean;
}

/**
 * Kysely dialect for `node:sqlite`, like MikroORM's `NodeSqliteDialect` but keeping prepared statements.
 *
 * The stock bridge compiles every statement again with `db.prepare(sql)`, a large part of a public
 * lookup's CPU. The service runs a small, fixed set of statement texts, so each is compiled once and
 * reused (bounded, least recently used out).
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
        // Each text compiled once; a text read as arrays is its own statement, set to answer arrays.
        const statements = new LRUCache<string, Prepared>({ max: maxStatements });
        const arrayStatements = new LRUCache<string, StatementSync>({ max: maxStatements });
        const statement = (sql: string): Prepared => {
          let cached = statements.get(sql);
          if (!cached) {
            const reader = /^\s*(select|pragma|explain|with)/i.test(sql) || /\breturning\b/i.test(sql);
            cached = { stmt: db.prepare(sql), reader };
            statements.set(sql, cached);
          }
          return cached;
        };
        const arrayStatement = (sql: string): StatementSync => {
          let stmt = arrayStatements.get(sql);
          if (!stmt) {
            stmt = db.prepare(sql);
            stmt.setReturnArrays(true);
            arrayStatements.set(sql, stmt);
          }
          return stmt;
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
            arrayStatements.clear();
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
          // With setReturnArrays(true), `all` answers arrays; node:sqlite's types describe only objects.
          rows: <T>(sql: string, params: readonly unknown[]) => arrayStatement(sql).all(...(params as never[])) as T[],
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
