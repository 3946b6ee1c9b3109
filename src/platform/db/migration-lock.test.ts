import { spawn } from 'node:child_process';
import { once } from 'node:events';
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

describe.skipIf(usingPostgres())('opening a SQLite database whose file another process has locked', () => {
  it('waits for the lock while it connects and migrates, instead of failing at once', async () => {
    const database = await createTestDatabase();
    const path = database.url.slice('file:'.length);
    // Another process (a synchronous wait here would also block this one) takes the file's exclusive
    // lock, as a process switching a fresh database to WAL or migrating it does, and keeps it 600 ms.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(${JSON.stringify(path)});
         db.exec('begin exclusive; create table held (x); insert into held values (1)');
         process.stdout.write('locked\\n');
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
         db.exec('commit');
         db.close();`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(holder.stdout, 'data');
      const started = Date.now();
      const db = await openDatabase(database.url);
      try {
        expect(Date.now() - started).toBeGreaterThan(300);
        expect(await db.query('select count(*) as n from partner')).toHaveLength(1);
      } finally {
        await db.close();
      }
    } finally {
      holder.kill();
      await database.drop();
    }
  });
});
