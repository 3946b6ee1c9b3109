import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../../../test/support/database.js';
import { ApiKey, Partner } from './entities/index.js';
import { reserveCredits, settleHeld } from './ledger-statements.js';
import { type Database, openDatabase } from './orm.js';

describe('database handle on MikroORM', () => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const partner = async (credits: number) => {
    const id = randomUUID();
    await db.run(
      'insert into partner (id, name, email, credit_balance, credit_usage, credit_reserved, sandbox, created_at) values (?, ?, ?, ?, 0, 0, ?, ?)',
      [id, 'P', `${id}@example.test`, credits, false, new Date()],
    );
    return id;
  };

  it('passes values through untouched: quotes, backslashes, `?` and `$1` in values, booleans, Dates, undefined', async () => {
    const id = randomUUID();
    const name = `O'Brien \\ what? $1 -- ?? '); drop table partner; --`;
    const at = new Date('2025-03-04T05:06:07.089Z');
    expect(
      await db.run(
        'insert into partner (id, name, email, credit_balance, credit_usage, credit_reserved, sandbox, created_at) values (?, ?, ?, 0, 0, 0, ?, ?)',
        [id, name, `${id}@example.test`, true, at],
      ),
    ).toBe(1);
    // Values are bound, and PostgreSQL types a parameter from its context: a bare `? is null` has none.
    const [row] = await db.query<{ name: string; sandbox: unknown; created_at: unknown }>(
      'select name, sandbox, created_at from partner where id = ? and cast(? as text) is null',
      [id, undefined],
    );
    expect(row?.name).toBe(name);
    expect(Boolean(row?.sandbox)).toBe(true);
    expect(new Date(row?.created_at as string).toISOString()).toBe(at.toISOString());
  });

  it('never runs a statement of another caller inside an open transaction, nor lets it see its writes', async () => {
    const id = await partner(5);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened = () => {};
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const failing = db.transaction(async (tx) => {
      await tx.run('update partner set credit_balance = 100 where id = ?', [id]);
      opened();
      await held;
      throw new Error('abort');
    });
    await open;
    // While the transaction waits: a read and a write from outside it.
    const read = db.query<{ b: number | string }>('select credit_balance as b from partner where id = ?', [id]);
    const write = db.run('update partner set credit_usage = 7 where id = ?', [id]);
    release();
    await expect(failing).rejects.toThrow('abort');
    expect(await write).toBe(1);
    expect(Number((await read)[0]?.b)).toBe(5);
    const [row] = await db.query<{ b: number | string; u: number | string }>(
      'select credit_balance as b, credit_usage as u from partner where id = ?',
      [id],
    );
    // The rollback took the transaction's update and left the outside write.
    expect({ b: Number(row?.b), u: Number(row?.u) }).toEqual({ b: 5, u: 7 });
  });

  it('counts changed rows and rolls a failed transaction back', async () => {
    const id = await partner(5);
    expect(await db.run('update partner set credit_balance = credit_balance + ? where id = ?', [1, id])).toBe(1);
    expect(await db.run('update partner set credit_balance = 0 where id = ?', [randomUUID()])).toBe(0);
    await expect(
      db.transaction(async (tx) => {
        await tx.run('update partner set credit_balance = 100 where id = ?', [id]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const [row] = await db.query<{ b: number | string }>('select credit_balance as b from partner where id = ?', [id]);
    expect(Number(row?.b)).toBe(6);
  });

  it('writes timestamps from the entity manager in the same form as the SQL statements', async () => {
    const id = await partner(0);
    const em = db.orm.em.fork();
    const created = new Date('2025-01-02T03:04:05.006Z');
    em.create(ApiKey, {
      id: randomUUID(),
      partner: id,
      prefix: `cgk_${id.slice(0, 8)}`,
      hash: 'h',
      createdAt: created,
    });
    await em.flush();
    // Epoch milliseconds would sort before any ISO text on SQLite, failing the lower bound.
    const [viaSql] = await db.query<{ n: number | string }>(
      'select count(*) as n from api_key where created_at > ? and created_at < ?',
      [new Date('2025-01-02T03:04:05.005Z'), new Date('2025-01-02T03:04:05.007Z')],
    );
    expect(Number(viaSql?.n)).toBe(1);
    const back = await db.orm.em.fork().findOneOrFail(Partner, { id });
    expect(back.createdAt).toBeInstanceOf(Date);
  });

  it('reserves only what the balance covers and settles a hold exactly once', async () => {
    const id = await partner(5);
    const hold = (credits: number) => ({
      id: randomUUID(),
      partnerId: id,
      credits,
      operation: 'op',
      requestId: 'r',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const first = hold(3);
    expect(await reserveCredits(db, first)).toBe(true);
    expect(await reserveCredits(db, hold(3))).toBe(false);
    const settlement = {
      reservationId: first.id,
      partnerId: id,
      reserved: 3,
      total: 2,
      charges: [
        { operation: 'a', credits: 2 },
        { operation: 'b', credits: 0 },
      ],
      requestId: 'r',
      at: new Date().toISOString(),
    };
    expect(await settleHeld(db, settlement)).toBe(true);
    expect(await settleHeld(db, settlement)).toBe(false);
    const [books] = await db.query<Record<string, number | string>>(
      `select credit_balance as balance, credit_usage as usage, credit_reserved as reserved,
              (select count(*) from ledger_entry where reservation_id = ?) as charges
         from partner where id = ?`,
      [first.id, id],
    );
    expect(Object.fromEntries(Object.entries(books ?? {}).map(([k, v]) => [k, Number(v)]))).toEqual({
      balance: 3,
      usage: 2,
      reserved: 0,
      charges: 1,
    });
  });

  it('answers rows as arrays through queryRows, and the same text as objects through query', async () => {
    const sql = "select 1 as a, 'x' as b union all select 2, null";
    expect(await db.queryRows(sql)).toEqual([
      [1, 'x'],
      [2, null],
    ]);
    expect(await db.query(sql)).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: null },
    ]);
    expect(await db.queryRows(sql)).toEqual([
      [1, 'x'],
      [2, null],
    ]);
    // Values stay bound, `?` numbered for PostgreSQL on this path too; columns may share a name.
    expect(await db.queryRows('select cast(? as text) as a, cast(? as text) as a', ["it's", null])).toEqual([
      ["it's", null],
    ]);
  });

  it('answers queryRows after a transaction that holds the connection, and with its writes', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    await db.run('create table if not exists rows_after (n integer)');
    const writing = db.transaction(async (tx) => {
      await tx.run('insert into rows_after (n) values (?)', [7]);
      inserted();
      await held;
    });
    // Read only once the transaction holds its connection and wrote: a fixed pause was not always enough.
    await didInsert;
    if (usingPostgres()) {
      // A pool: the read takes another connection at once, and sees only what is committed.
      expect(await db.queryRows<[number]>('select n from rows_after')).toEqual([]);
      release();
      await writing;
      expect(await db.queryRows<[number]>('select n from rows_after')).toEqual([[7]]);
    } else {
      // One connection: the read waits for the transaction, then sees its write.
      const reading = db.queryRows<[number]>('select n from rows_after');
      release();
      await writing;
      expect(await reading).toEqual([[7]]);
    }
    await db.run('drop table rows_after');
  });
});
