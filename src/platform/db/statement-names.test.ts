import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../../../test/support/database.js';
import { type Database, openDatabase } from './orm.js';
import { StatementNames } from './statement-names.js';

describe('StatementNames', () => {
  it('names a text by its digest, the same each time, and at most `max` texts', () => {
    const names = new StatementNames(2);
    const a = names.of('select 1');
    expect(a).toMatch(/^cipgate_[0-9a-f]{32}$/);
    expect(names.of('select 1')).toBe(a);
    expect(new StatementNames().of('select 1')).toBe(a);
    expect(names.of('select 2')).not.toBe(a);
    expect(names.of('select 3')).toBeUndefined();
    expect(names.of('select 1')).toBe(a);
  });

  it('stops naming after a refusal of a named statement, and only then', () => {
    const names = new StatementNames();
    expect(names.refused(Object.assign(new Error('canceling statement'), { code: '57014' }))).toBe(false);
    expect(names.refused(new Error('no code'))).toBe(false);
    expect(names.refused(null)).toBe(false);
    expect(names.of('select 1')).toBeDefined();
    expect(names.refused(Object.assign(new Error('prepared statement "x" does not exist'), { code: '26000' }))).toBe(
      true,
    );
    expect(names.of('select 1')).toBeUndefined();
    expect(new StatementNames().refused({ code: '42P05' })).toBe(true);
  });

  it('renames a text whose plan went stale, once for the name that failed, and for nothing else', () => {
    const names = new StatementNames();
    const first = names.of('select 1') as string;
    const stale = { code: '0A000', message: 'cached plan must not change result type' };
    expect(names.stale('select 1', first, { code: '0A000', message: 'unsupported' })).toBe(false);
    expect(names.stale('select 1', first, { ...stale, code: '42P05' })).toBe(false);
    expect(names.of('select 1')).toBe(first);
    expect(names.stale('select 1', first, stale)).toBe(true);
    const second = names.of('select 1');
    expect(second).toMatch(new RegExp(`^${first}_\\d+$`));
    // A call that failed on another connection with the old name at the same time: no third name.
    expect(names.stale('select 1', first, stale)).toBe(true);
    expect(names.of('select 1')).toBe(second);
  });
});

describe.runIf(usingPostgres())('named hot reads on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Database;
  const READ = 'select ?::int + 1';
  // The one pooled connection's prepared statements, read on that connection.
  const prepared = async () =>
    (await db.queryRows<[string]>('select statement from pg_prepared_statements')).map((r) => r[0]);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url, { poolMax: 1, acquireTimeoutMs: 5000, statementTimeoutMs: 5000 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('prepares a read once on its connection and answers each call with its own values', async () => {
    expect(await db.queryRows(READ, [1])).toEqual([[2]]);
    expect(await db.queryRows(READ, [41])).toEqual([[42]]);
    expect((await prepared()).filter((s) => s.includes('select $1::int + 1'))).toHaveLength(1);
  });

  it('prepares a read again when a migration changed the type of a column it reads', async () => {
    await db.run('create table plan_change (owner varchar(66))');
    await db.run(`insert into plan_change values ('0x1')`);
    const read = 'select owner from plan_change where owner = ?';
    expect(await db.queryRows(read, ['0x1'])).toEqual([['0x1']]);
    // A rolling deploy: the new release's migration runs while this process's connections hold the plan.
    await db.run('alter table plan_change alter column owner type text');
    expect(await db.queryRows(read, ['0x1'])).toEqual([['0x1']]);
    expect(await db.queryRows(read, ['0x1'])).toEqual([['0x1']]);
    // The connection that failed was dropped by the pool; the statement lives on under a new name.
    const names = (await db.queryRows<[string, string]>('select name, statement from pg_prepared_statements'))
      .filter(([, statement]) => statement.includes('select owner from plan_change'))
      .map(([name]) => name);
    expect(names).toEqual([expect.stringMatching(/^cipgate_[0-9a-f]{32}_\d+$/)]);
  });

  it('sends a read again unnamed when the server no longer knows its name, and names nothing after', async () => {
    expect(await db.queryRows(READ, [1])).toEqual([[2]]);
    // What a pooler in transaction mode does to a name: the next call's Bind reaches a connection
    // without it (here the same connection, its statements dropped behind the driver's back).
    await db.run('deallocate all');
    expect(await db.queryRows(READ, [7])).toEqual([[8]]);
    expect(await db.queryRows('select ?::int * 2', [21])).toEqual([[42]]);
    expect(await prepared()).toEqual([]);
  });
});
