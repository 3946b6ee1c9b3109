import type { StatementSync } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect } from 'kysely';

/**
 * Kysely dialect for `node:sqlite`, like MikroORM's `NodeSqliteDialect` but keeping prepared statements.
 *
 * The stock bridge calls `db.prepare(sql)` on every query; profiles of the public lookups on the
 * embedded database put that compile at ~13 % of the server's CPU. The service runs a small, fixed set
 * of statement texts, so each is compiled once and reused (bounded, oldest first out).
 */
export class CachedNodeSqliteDialect extends SqliteDialect {
  constructor(dbName: string, maxStatements = 500) {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    super({
      database: async () => {
        const db = new DatabaseSync(dbName);
        const statements = new Map<string, StatementSync>();
        const statement = (sql: string): StatementSync => {
          let stmt = statements.get(sql);
          if (!stmt) {
            stmt = db.prepare(sql);
            if (statements.size >= maxStatements) statements.delete(statements.keys().next().value as string);
            statements.set(sql, stmt);
          }
          return stmt;
        };
        const database = {
          prepare(sql: string) {
            const stmt = statement(sql);
            return {
              reader: /^\s*(select|pragma|explain|with)/i.test(sql) || /\breturning\b/i.test(sql),
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
        // node:sqlite's statement types differ from better-sqlite3's nominally, not in behaviour.
        return database as unknown as SqliteDatabase;
      },
    });
  }
}
