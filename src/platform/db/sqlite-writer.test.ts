import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteWriter } from './sqlite-writer.js';
import { isDatabaseUnavailable } from './unavailable.js';

// The writer is the embedded database's alone, so it is tested on a file of its own on either CI leg.
describe('SqliteWriter', () => {
  let dir: string;
  let path: string;
  let reader: DatabaseSync;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cipgate-writer-'));
    path = join(dir, 'w.db');
    reader = new DatabaseSync(path);
    reader.exec('pragma journal_mode = wal');
    reader.exec('create table t (id integer primary key, v text not null, flag integer)');
  });
  afterAll(() => {
    reader.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rows = () => reader.prepare('select id, v, flag from t order by id').all();

  it('runs transactions in the order given, binding booleans and undefined as the service does', async () => {
    const writer = new SqliteWriter({ path, busyTimeoutMs: 1000 });
    try {
      const insert = 'insert into t (id, v, flag) values (?, ?, ?)';
      // Sent together: the second replaces what the first wrote only if it runs after it.
      await Promise.all([
        writer.transaction([{ sql: insert, params: [1, 'first', true] }]),
        writer.transaction([{ sql: 'update t set v = ?, flag = ? where id = ?', params: ['second', undefined, 1] }]),
        writer.transaction([{ sql: insert, params: [2, 'x\u0000"\\\ud800', false] }]),
      ]);
    } finally {
      await writer.close();
    }
    expect(rows()).toEqual([
      { id: 1, v: 'second', flag: null },
      // A lone surrogate is bound as UTF-8 (U+FFFD), as on the caller's own connection.
      { id: 2, v: 'x\u0000"\\\ufffd', flag: 0 },
    ]);
    reader.exec('delete from t');
  });

  it("rolls a failed transaction back whole and rejects with node:sqlite's error; the next runs", async () => {
    const writer = new SqliteWriter({ path, busyTimeoutMs: 1000 });
    try {
      const failed = writer.transaction([
        { sql: 'insert into t (id, v) values (?, ?)', params: [10, 'kept?'] },
        { sql: 'insert into t (id, v) values (?, ?)', params: [11, null] },
      ]);
      await expect(failed).rejects.toMatchObject({
        message: expect.stringMatching(/NOT NULL constraint failed: t\.v/),
        code: 'ERR_SQLITE_ERROR',
        errcode: 1299, // SQLITE_CONSTRAINT_NOTNULL
      });
      await writer.transaction([{ sql: 'insert into t (id, v) values (?, ?)', params: [12, 'next'] }]);
    } finally {
      await writer.close();
    }
    expect(rows()).toEqual([{ id: 12, v: 'next', flag: null }]);
    reader.exec('delete from t');
  });

  it('waits for the lock another connection holds up to its busy timeout, then fails as unavailable', async () => {
    const writer = new SqliteWriter({ path, busyTimeoutMs: 300 });
    reader.exec('begin immediate');
    let released = false;
    try {
      const started = performance.now();
      const error = await writer.transaction([{ sql: 'insert into t (id, v) values (1, ?)', params: ['a'] }]).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(isDatabaseUnavailable(error)).toBe(true);
      // Released within the timeout, the lock is waited for and the transaction runs.
      const waiting = writer.transaction([{ sql: 'insert into t (id, v) values (2, ?)', params: ['b'] }]);
      setTimeout(() => {
        reader.exec('rollback');
        released = true;
      }, 100);
      await waiting;
      expect(rows()).toEqual([{ id: 2, v: 'b', flag: null }]);
    } finally {
      if (!released) reader.exec('rollback');
      await writer.close();
    }
    reader.exec('delete from t');
  });

  it('fails every transaction when its connection cannot open, and still closes', async () => {
    const writer = new SqliteWriter({ path: join(dir, 'missing', 'dir', 'x.db'), busyTimeoutMs: 100 });
    await expect(writer.transaction([{ sql: 'select 1', params: [] }])).rejects.toThrow(/unable to open/);
    await expect(writer.transaction([{ sql: 'select 1', params: [] }])).rejects.toThrow(/unable to open/);
    await writer.close();
  });
});
