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

/**
 * Kysely dialect for `node:sqlite`, like MikroORM's `NodeSqliteDialect` but keeping prepared statements.
 *
 * The stock bridge calls `db.prepare(sql)` on every query; profiles of the public lookups on the
 * embedded database put that compile at ~13 % of the server's CPU. The service runs a small, fixed set
 * of statement texts, so each is compiled once and reused (bounded, oldest first out).
 */
export class CachedNodeSqliteDialect extends SqliteDialect {
  /**
   * `busyTimeoutMs` applies from the connection's first statement: MikroORM reads the schema while it
   * connects, before any pragma can be sent, and without a timeout that read fails at once with
   * SQLITE_BUSY while another process holds the file's lock (one of six processes starting together on a
   * fresh database did, in CI).
   */
  constructor(dbName: string, busyTimeoutMs: number, maxStatements = 500) {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    super({
      database: async () => {
        const db = new DatabaseSync(dbName, { timeout: busyTimeoutMs });
        const statements = new Map<string, StatementSync>();
        const statement = (sql: string): StatementSync => {
          let stmt = statements.get(sql);
          if (!stmt) {
            stmt = db.prepare(sql);
            if (sql.startsWith(ROWS_AS_ARRAYS)) stmt.setReturnArrays(true);
            if (statements.size >= maxStatements) statements.delete(statements.keys().next().value as string);
            statements.set(sql, stmt);
          }
          return stmt;
        };
        const database = {
          prepare(sql: string) {
            const stmt = statement(sql);
            return {
              reader:
                sql.startsWith(ROWS_AS_ARRAYS) ||
                /^\s*(select|pragma|explain|with)/i.test(sql) ||
                /\breturning\b/i.test(sql),
              all: (params: readonly unknown[]) => stmt.all(...(params as never[])),
              run: (params: readonly unknown[]) => stmt.run(...(params as never[])),
              get: (params: readonly unknown[]) => stmt.get(...(params as never[])),
              iterate: (params: readonly unknown[]) => stmt.iterate(...(params as never[])),
            };
          },
          close() {
            statements.clear();
            db.close();
          },
        };
        return database;
      },
    });
  }
}
