import { describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres } from '../../../test/support/database.js';
import { migrationsList } from './migrations/index.js';
import { openDatabase } from './orm.js';

// The multi-process version is in test/ops; this one opens the connections at the same instant, which
// separate processes (each loading the whole service first) rarely manage, so it is the one that races.
describe(`opening a fresh ${usingPostgres() ? 'PostgreSQL' : 'SQLite'} database from many connections at once`, () => {
  it('migrates it once, under the database lock, and every opener gets a working database', async () => {
    const database = await createTestDatabase();
    try {
      const opened = await Promise.allSettled(Array.from({ length: 6 }, () => openDatabase(database.url)));
      const failed = opened.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
      expect(failed).toEqual([]);
      const dbs = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      try {
        const rows = await dbs[0]!.query<{ name: string; n: number }>(
          'select name, count(*) as n from cipgate_migrations group by name order by name',
        );
        expect(rows.map((r) => [r.name, Number(r.n)])).toEqual(migrationsList.map((m) => [m.name, 1]));
        for (const db of dbs) expect(await db.query('select count(*) as n from partner')).toHaveLength(1);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    } finally {
      await database.drop();
    }
  });
});
