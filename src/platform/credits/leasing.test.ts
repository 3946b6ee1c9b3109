import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { createPartner } from '../../../test/support/features.js';
import { type Database, openDatabase } from '../db/orm.js';
import { CreditLedger, type LeaseOptions } from './ledger.js';

type Handle = Pick<Database, 'query' | 'run'>;

const writes = (sql: string) =>
  /^\s*(insert|update|delete)\b/i.test(sql) || (/^\s*with\b/i.test(sql) && /\b(insert|update|delete)\b/i.test(sql));

/**
 * The database as the ledger sees it, counting what it sends. A "write" is one round of work that
 * commits a change: a transaction with at least one changing statement, or one changing statement on
 * its own (PostgreSQL's one-statement steps). Reads are counted apart. `loseReply` makes a write that
 * committed fail all the same, as a connection lost before the answer arrives does.
 */
function instrument(db: Database, loseReply?: (statements: string[]) => boolean) {
  const counts = { writes: 0, reads: 0, lostReplies: 0 };
  const after = (statements: string[]) => {
    if (statements.some(writes)) counts.writes += 1;
    else counts.reads += 1;
    if (loseReply?.(statements)) {
      counts.lostReplies += 1;
      throw new Error('connection lost after commit (test)');
    }
  };
  const handle = (inner: Handle, seen?: string[]): Handle => ({
    async query<T>(sql: string, params?: unknown[]) {
      const rows = await inner.query<T>(sql, params);
      if (seen) seen.push(sql);
      else after([sql]);
      return rows;
    },
    async run(sql: string, params?: unknown[]) {
      const changed = await inner.run(sql, params);
      if (seen) seen.push(sql);
      else after([sql]);
      return changed;
    },
  });
  const counted: Database = {
    ...db,
    ...handle(db),
    async transaction<T>(fn: (tx: Handle) => Promise<T>) {
      const seen: string[] = [];
      const result = await db.transaction((tx) => fn(handle(tx, seen)));
      after(seen);
      return result;
    },
  };
  return { db: counted, counts };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('credit leases', () => {
  let database: TestDatabase;
  /** Two connections to one database: two processes, as far as the ledger can tell. */
  let db: Database;
  let other: Database;
  /**
   * Where a second ledger writes. node:sqlite waits for a locked file synchronously, so a second
   * connection in this process would stall the one holding the lock until the busy timeout; the
   * two-process run on SQLite is concurrency.test.ts's (child processes). A second ledger instance on
   * the same connection still keeps its own leases, as another process would.
   */
  let second: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openDatabase(database.url);
    other = await openDatabase(database.url);
    second = db.dialect === 'sqlite' ? db : other;
  });
  afterAll(async () => {
    await db?.close();
    await other?.close();
    await database?.drop();
  });

  let seq = 0;
  const partner = async (credits: number) => {
    seq += 1;
    const { partner } = await createPartner(db, {
      name: 'Leasing',
      email: `lease-${seq}-${Date.now()}@example.com`,
      credits,
    });
    return partner.id;
  };
  const leasing = (ledgerDb: Database, options: Partial<LeaseOptions> = {}, ttlMs = 60_000) =>
    new CreditLedger(ledgerDb, ttlMs, { maxCredits: 1000, flushMs: 500, ...options });

  /**
   * The partner row, its ledger and its leases, read as another process would: in one statement, so
   * from one snapshot even while flushes commit.
   */
  const books = async (id: string) => {
    const [row] = await other.query<Record<string, number | string>>(
      `select p.credit_balance as balance, p.credit_usage as usage, p.credit_reserved as reserved,
         (select coalesce(sum(credits), 0) from ledger_entry where partner_id = p.id and kind = 'grant') as granted,
         (select coalesce(sum(credits), 0) from ledger_entry where partner_id = p.id and kind = 'charge') as charged,
         (select count(*) from ledger_entry where partner_id = p.id and kind = 'charge') as charges,
         (select count(distinct reservation_id) from ledger_entry where partner_id = p.id and kind = 'charge') as distinct_charges,
         (select count(*) from credit_lease where partner_id = p.id) as leases,
         (select coalesce(sum(credits), 0) from credit_lease where partner_id = p.id) as leased
       from partner p where p.id = ?`,
      [id],
    );
    const n = (key: string) => Number(row?.[key]);
    return {
      balance: n('balance'),
      usage: n('usage'),
      reserved: n('reserved'),
      granted: n('granted'),
      charged: n('charged'),
      charges: n('charges'),
      /** Reservations charged more than once (must stay none). */
      twice: n('charges') - n('distinct_charges'),
      leases: n('leases'),
      leased: n('leased'),
    };
  };
  /** The invariants every committed state keeps, whatever is in flight. */
  const balanced = (b: Awaited<ReturnType<typeof books>>) => {
    expect(b.balance + b.usage).toBe(b.granted);
    expect(b.usage).toBe(b.charged);
    expect(b.twice).toBe(0);
    expect(b.reserved).toBeGreaterThanOrEqual(b.leased);
    expect(b.reserved).toBeLessThanOrEqual(b.balance);
  };

  /** `calls` paid calls of `price` through `ledger`, `parallel` at a time; answers how many were refused. */
  const drive = async (ledger: CreditLedger, id: string, calls: number, parallel: number, price = 1) => {
    let next = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < calls) {
          const i = next++;
          const held = await ledger.reserve(id, price, 'identitySearch', `req-${i}`);
          if (!held.ok) {
            refused += 1;
            continue;
          }
          await ledger.settle(held.reservation, [{ operation: 'identitySearch', credits: price }], `req-${i}`);
        }
      }),
    );
    return refused;
  };

  it('reads the row as it is once this process writes its charges, without writing them', async () => {
    const id = await partner(10_000);
    const { db: counted, counts } = instrument(db);
    const ledger = leasing(counted, { flushMs: 60_000 });
    try {
      expect(await drive(ledger, id, 40, 4)).toBe(0);
      const read = () =>
        counted.query<{ usage: number | string }>('select credit_usage as usage from partner where id = ?', [id]);
      const { value, unwritten } = await ledger.readSettled(id, read);
      // Leased charges wait for the flush (a minute here): the row lacks them, `unwritten` has them.
      expect(unwritten).toBeGreaterThan(0);
      expect(Number(value[0]?.usage) + unwritten).toBe(40);
      expect(counts.lostReplies).toBe(0);
    } finally {
      await ledger.close();
    }
    const b = await books(id);
    balanced(b);
    expect(b.usage).toBe(40);
  });

  it('one hot key: 2000 paid calls cost at most 0.1 database writes each, and the books balance after close', async () => {
    const id = await partner(10_000);
    const { db: counted, counts } = instrument(db);
    const ledger = leasing(counted);
    const started = Date.now();
    expect(await drive(ledger, id, 2000, 8)).toBe(0);
    await ledger.close();
    const elapsed = Date.now() - started;
    const perCall = counts.writes / 2000;
    console.info(
      `leased: 2000 paid calls, ${counts.writes} writes (${perCall.toFixed(4)} a call), ${counts.reads} reads, ${elapsed} ms (${db.dialect})`,
    );
    expect(perCall).toBeLessThanOrEqual(0.1);
    const b = await books(id);
    balanced(b);
    expect(b).toMatchObject({ balance: 8000, usage: 2000, reserved: 0, charges: 2000, leases: 0 });
  });

  it('without leases the same calls cost two writes each (what the counter above is measured against)', async () => {
    const id = await partner(1000);
    const { db: counted, counts } = instrument(db);
    const ledger = new CreditLedger(counted, 60_000);
    const started = Date.now();
    expect(await drive(ledger, id, 300, 8)).toBe(0);
    await ledger.close();
    console.info(
      `per request: 300 paid calls, ${counts.writes} writes (${(counts.writes / 300).toFixed(2)} a call), ${Date.now() - started} ms (${db.dialect})`,
    );
    expect(counts.writes).toBe(600);
    expect(await books(id)).toMatchObject({ balance: 700, usage: 300, reserved: 0, charges: 300, leases: 0 });
  });

  it('another process sees every charge within a second, this process at once after whenSettled', async () => {
    const id = await partner(5000);
    const ledger = leasing(db);
    try {
      await drive(ledger, id, 300, 4);
      const settledAt = Date.now();
      // The leased block is on the partner row; the charges are not all written yet.
      const before = await books(id);
      balanced(before);
      // Blocks that ran out are being handed back beside the one in use.
      expect(before.leases).toBeGreaterThanOrEqual(1);
      await expect.poll(async () => (await books(id)).usage, { timeout: 1000, interval: 25 }).toBe(300);
      const seen = Date.now() - settledAt;
      console.info(`charges visible to another connection ${seen} ms after the last settle`);
      expect(seen).toBeLessThan(1000);
      // This process's own readers wait for its charges, and get them without waiting a flush tick.
      await drive(ledger, id, 20, 2);
      await ledger.whenSettled(id);
      const after = await books(id);
      balanced(after);
      expect(after).toMatchObject({ usage: 320, charges: 320 });
      // Available counts what the lease holds for nobody: with nothing in flight, the whole balance.
      expect(after.reserved).toBe(after.leased);
      expect(await ledger.available(id)).toBe(after.balance);
    } finally {
      await ledger.close();
    }
    expect(await books(id)).toMatchObject({ balance: 4680, usage: 320, reserved: 0, leases: 0 });
  });

  it('hands back a lease left idle, without being closed', async () => {
    const id = await partner(2000);
    const ledger = leasing(db, { idleMs: 300, flushMs: 100 });
    try {
      await drive(ledger, id, 100, 4);
      expect((await books(id)).leases).toBeGreaterThanOrEqual(1);
      await expect.poll(async () => (await books(id)).leases, { timeout: 2000, interval: 50 }).toBe(0);
      expect(await books(id)).toMatchObject({ balance: 1900, usage: 100, reserved: 0, charges: 100 });
    } finally {
      await ledger.close();
    }
  });

  it('a lease of a process that stopped expires and is swept; its unwritten charges are lost, never overspent', async () => {
    const id = await partner(1000);
    // No timers: nothing renews or flushes on its own, as in a process that hangs or died.
    const stopped = leasing(db, { timers: false }, 1000);
    await drive(stopped, id, 40, 4);
    await stopped.whenSettled(id);
    await drive(stopped, id, 10, 2);
    const held = await books(id);
    balanced(held);
    expect(held).toMatchObject({ usage: 40, leases: 1 });
    const sweeper = new CreditLedger(second, 1000);
    expect(await sweeper.sweepExpired(new Date())).toBe(0);
    expect(await sweeper.sweepExpired(new Date(Date.now() + 1500))).toBe(1);
    const after = await books(id);
    balanced(after);
    // The ten answered since the last flush are not charged: an under-charge, never more than granted.
    expect(after).toMatchObject({ balance: 960, usage: 40, reserved: 0, leases: 0, charges: 40 });
    expect(await sweeper.available(id)).toBe(960);
  });

  it('a live process renews its lease, so a sweeper leaves it alone past the first expiry', async () => {
    const id = await partner(1000);
    const ledger = leasing(db, { flushMs: 100, idleMs: 5000 }, 1000);
    try {
      await drive(ledger, id, 20, 2);
      const slow = await ledger.reserve(id, 1, 'slow', 'slow-1');
      expect(slow.ok).toBe(true);
      await sleep(1500);
      // Expired by its first expiry, but renewed since: nothing to sweep.
      expect(await new CreditLedger(second, 1000).sweepExpired(new Date())).toBe(0);
      expect((await books(id)).leases).toBe(1);
      if (slow.ok) await ledger.settle(slow.reservation, [{ operation: 'slow', credits: 1 }], 'slow-1');
    } finally {
      await ledger.close();
    }
    const b = await books(id);
    balanced(b);
    expect(b).toMatchObject({ balance: 979, usage: 21, reserved: 0, leases: 0, charges: 21 });
  });

  it('two processes on one small balance never overspend, and together spend all of it', async () => {
    const id = await partner(600);
    const a = leasing(db, { idleMs: 300, flushMs: 100 });
    const b = leasing(second, { idleMs: 300, flushMs: 100 });
    let successes = 0;
    // Clients that retry a refusal for a while: a refusal while the other process holds idle leased
    // credits lasts until that lease is handed back, well under the 2 s they keep trying.
    const client = async (ledger: CreditLedger, n: number) => {
      let refusedSince: number | undefined;
      for (let i = 0; ; i++) {
        const held = await ledger.reserve(id, 1, 'identitySearch', `c${n}-${i}`);
        if (held.ok) {
          refusedSince = undefined;
          successes += 1;
          await ledger.settle(held.reservation, [{ operation: 'identitySearch', credits: 1 }], `c${n}-${i}`);
          continue;
        }
        refusedSince ??= Date.now();
        if (Date.now() - refusedSince > 2000) return;
        await sleep(50);
      }
    };
    try {
      await Promise.all(Array.from({ length: 12 }, (_, n) => client(n % 2 ? a : b, n)));
      await Promise.all([a.whenSettled(id), b.whenSettled(id)]);
      balanced(await books(id));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(successes).toBe(600);
    const final = await books(id);
    balanced(final);
    expect(final).toMatchObject({ balance: 0, usage: 600, reserved: 0, charges: 600, leases: 0 });
  });

  it('two processes bursting in parallel past a balance succeed at most floor(balance / price) times', async () => {
    const id = await partner(1001);
    const a = leasing(db);
    const b = leasing(second);
    try {
      const refused = await Promise.all([drive(a, id, 400, 40, 2), drive(b, id, 400, 40, 2)]);
      const successes = 800 - refused[0] - refused[1];
      expect(successes).toBeLessThanOrEqual(500);
      await Promise.all([a.close(), b.close()]);
      const final = await books(id);
      balanced(final);
      expect(final).toMatchObject({ usage: successes * 2, charges: successes, reserved: 0, leases: 0 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a flush whose reply is lost is recognised when retried, and charges once', async () => {
    const id = await partner(1000);
    let lose = true;
    const flush = (sql: string[]) =>
      sql.some((s) => /flushed_seq = flushed_seq \+ 1/.test(s) || /delete from credit_lease/.test(s));
    const { db: flaky, counts } = instrument(db, (statements) => {
      if (!lose || !flush(statements) || !statements.some((s) => /ledger_entry/.test(s))) return false;
      lose = false;
      return true;
    });
    const errors: unknown[] = [];
    const ledger = leasing(flaky, { timers: false, onError: (err) => errors.push(err) });
    await drive(ledger, id, 50, 4);
    await ledger.whenSettled(id);
    expect(counts.lostReplies).toBe(1);
    expect(errors).toHaveLength(1);
    const b = await books(id);
    balanced(b);
    expect(b).toMatchObject({ usage: 50, charges: 50 });
    await ledger.close();
    expect(await books(id)).toMatchObject({ balance: 950, usage: 50, reserved: 0, leases: 0 });
  });

  it('settling a leased hold twice charges it once', async () => {
    const id = await partner(1000);
    const ledger = leasing(db, { timers: false });
    await drive(ledger, id, 20, 2);
    const held = await ledger.reserve(id, 2, 'bridgeQuote', 'twice');
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    const charge = [{ operation: 'bridgeQuote', credits: 2 }];
    expect(await ledger.settle(held.reservation, charge, 'twice')).toBe(2);
    expect(await ledger.settle(held.reservation, charge, 'twice')).toBe(2);
    await ledger.whenSettled(id);
    // Again once written: the ledger row answers it.
    expect(await ledger.settle(held.reservation, charge, 'twice')).toBe(2);
    await ledger.close();
    const b = await books(id);
    balanced(b);
    expect(b).toMatchObject({ usage: 22, charges: 21, reserved: 0, leases: 0 });
  });

  it('a leased hold settled with `within` is charged in that transaction, or not at all', async () => {
    const id = await partner(1000);
    const ledger = leasing(db, { timers: false });
    await drive(ledger, id, 20, 2);
    await ledger.whenSettled(id);
    const held = await ledger.reserve(id, 3, 'bridgeQuote', 'idem');
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    expect((await books(id)).leases).toBeGreaterThanOrEqual(1);
    const charge = [{ operation: 'bridgeQuote', credits: 3 }];
    const failing = async () => {
      throw new Error('could not store the answer');
    };
    await expect(ledger.settle(held.reservation, charge, 'idem', failing)).rejects.toThrow(/store the answer/);
    expect(await books(id)).toMatchObject({ usage: 20, charges: 20 });
    let recorded = 0;
    const recording = async (tx: Handle) => {
      await tx.query('select 1 as ok');
      recorded += 1;
    };
    expect(await ledger.settle(held.reservation, charge, 'idem', recording)).toBe(3);
    expect(recorded).toBe(1);
    // Written by the settle itself, with no flush in between.
    const b = await books(id);
    balanced(b);
    expect(b).toMatchObject({ usage: 23, charges: 21 });
    await ledger.close();
    expect(await books(id)).toMatchObject({ balance: 977, usage: 23, reserved: 0, leases: 0 });
  });

  it('a refusal hands back this process’s own unheld leased credits first', async () => {
    const id = await partner(200);
    const ledger = leasing(db, { timers: false, minCredits: 16 });
    await drive(ledger, id, 20, 2);
    const leased = await books(id);
    expect(leased.leases).toBe(1);
    // More than the partner row has available (the lease holds some of it), less than the total.
    const all = await ledger.available(id);
    expect(all).toBe(180);
    expect(leased.balance - leased.reserved).toBeLessThan(all);
    const big = await ledger.reserve(id, all, 'everything', 'big');
    expect(big.ok).toBe(true);
    if (big.ok) await ledger.settle(big.reservation, [{ operation: 'everything', credits: all }], 'big');
    await ledger.close();
    const b = await books(id);
    balanced(b);
    expect(b).toMatchObject({ balance: 0, usage: 200, reserved: 0, leases: 0 });
  });
});
