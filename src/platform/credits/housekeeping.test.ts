import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { usingPostgres } from '../../../test/support/database.js';
import { runAdmin } from '../cli/admin.js';
import { ledgerRollup } from './cli/ledger-rollup.js';
import { retentionCutoff, rollUpLedger } from './rollup.js';

const DAY_MS = 86_400_000;

describe('ledger housekeeping', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Bulk work: the 60 000-call test's vacuums, its fixture update of 30 000 rows and a roll-up of
    // them, which `ledger:rollup` runs without time limits. The service's 1 s statement limit is for
    // requests; on a slow host that update alone took longer (CI, 2026-11-28).
    app = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '60000' });
  });
  afterAll(() => app.stop());

  const one = async <T>(sql: string, params: unknown[] = []) =>
    (await app.services.db.query<Record<string, unknown>>(sql, params))[0] as T;
  const books = async (partnerId: string) => {
    const p = await one<Record<string, number | string>>(
      'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
      [partnerId],
    );
    const raw = await one<{ c: number | string | null; n: number | string }>(
      "select sum(credits) as c, count(*) as n from ledger_entry where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
    const daily = await one<{ c: number | string | null; n: number | string | null }>(
      "select sum(credits) as c, sum(count) as n from ledger_daily where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
    return {
      balance: Number(p.credit_balance),
      usage: Number(p.credit_usage),
      reserved: Number(p.credit_reserved),
      raw: Number(raw.c ?? 0),
      rawRows: Number(raw.n),
      rolledUp: Number(daily.c ?? 0),
      rolledUpCalls: Number(daily.n ?? 0),
    };
  };
  /** `calls` paid calls straight through the ledger (reserve, then settle), `parallel` at a time. */
  const drive = async (
    partnerId: string,
    calls: number,
    parallel: number,
    price = (i: number) => 1 + (i % 3),
    options: { lease?: boolean } = {},
  ) => {
    let next = 0;
    const ops = ['identitySearch', 'resolveName', 'bridgeQuote'];
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < calls) {
          const i = next++;
          const credits = price(i);
          const held = await app.services.ledger.reserve(partnerId, credits, ops[i % 3] as string, `r${i}`, options);
          if (!held.ok) throw new Error(`reserve refused at call ${i}`);
          await app.services.ledger.settle(held.reservation, [{ operation: ops[i % 3] as string, credits }], `r${i}`);
        }
      }),
    );
    // Charges from a leased block are written by the ledger's next flush; readers of the database in
    // this process wait for them, as the stats resolver does.
    await app.services.ledger.whenSettled(partnerId);
  };
  const usageTotal = async (apiKey: string, from: string, to: string) => {
    const res = await app.http.inject({
      method: 'GET',
      url: `/partners/usage?from=${from}&to=${to}&granularity=day`,
      headers: { 'x-api-key': apiKey },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      totalCredits: number;
      periods: { period: string; operation: string; credits: number; calls: number }[];
    };
  };

  it('rolls old ledger rows into daily totals without changing any total, once, even run in parallel', async () => {
    const { id, apiKey } = await app.partner(10_000);
    await drive(id, 600, 8);
    // Spread the charges over the last five days, as if they had been made then.
    const now = Date.now();
    await app.services.db.run(
      `update ledger_entry set created_at = case
          when id % 5 = 0 then ? when id % 5 = 1 then ? when id % 5 = 2 then ? when id % 5 = 3 then ? else created_at end
        where partner_id = ? and kind = 'charge'`,
      [new Date(now - 4 * DAY_MS), new Date(now - 3 * DAY_MS), new Date(now - 2 * DAY_MS), new Date(now - DAY_MS), id],
    );
    const from = new Date(now - 10 * DAY_MS).toISOString().slice(0, 10);
    const to = new Date(now + DAY_MS).toISOString().slice(0, 10);
    const before = await books(id);
    const report = await usageTotal(apiKey, from, to);
    expect(before.raw).toBe(before.usage);
    expect(report.totalCredits).toBe(before.usage);

    // Three processes' sweepers at once: they take turns, and nothing is counted twice.
    const cutoff = retentionCutoff(2, new Date(now));
    const moved = await Promise.all([1, 2, 3].map(() => rollUpLedger(app.services.db, cutoff)));
    const after = await books(id);
    expect(moved.reduce((a, b) => a + b, 0)).toBe(before.rawRows - after.rawRows);
    expect(after.rawRows).toBeLessThan(before.rawRows);
    expect(after.rolledUp).toBeGreaterThan(0);
    expect(after.raw + after.rolledUp).toBe(after.usage);
    expect(after.rawRows + after.rolledUpCalls).toBe(600);
    expect(after.balance + after.usage).toBe(10_000);
    const oldest = await one<{ n: number | string }>(
      'select count(*) as n from ledger_entry where partner_id = ? and created_at < ?',
      [id, cutoff],
    );
    expect(Number(oldest.n)).toBe(0);
    // Usage reads roll-up and raw rows: the same report, period by period.
    expect(await usageTotal(apiKey, from, to)).toEqual(report);
    expect(await rollUpLedger(app.services.db, cutoff)).toBe(0);
  });

  it('ledger:rollup rolls up from the command line', async () => {
    const { id } = await app.partner(100);
    await drive(id, 9, 3);
    await app.services.db.run('update ledger_entry set created_at = ? where partner_id = ?', [
      new Date(Date.now() - 40 * DAY_MS),
      id,
    ]);
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const env = { ...process.env, DATABASE_URL: app.database.url };
    expect(await runAdmin([ledgerRollup], ['ledger:rollup', '--days', '30', '--json'], io, env)).toBe(0);
    expect(JSON.parse(lines.at(-1) as string).rolledUp).toBeGreaterThanOrEqual(9);
    const after = await books(id);
    expect(after).toMatchObject({ rawRows: 0, rolledUp: after.usage, rolledUpCalls: 9 });
    expect(await runAdmin([ledgerRollup], ['ledger:rollup', '--days', '0'], io, env)).toBe(2);
  });

  it.runIf(usingPostgres())(
    'after 60 000 paid calls credit_reservation holds no rows and no bloat beyond what its autovacuum clears',
    { timeout: 600_000 },
    async () => {
      const db = app.services.db;
      const options = await one<{ o: string[] | null }>(
        "select reloptions as o from pg_class where relname = 'credit_reservation'",
      );
      // The table's own trigger: a vacuum every 500 dead rows, whatever the table's size; the same for
      // the leases a busy partner's flushes update a few times a second.
      expect(options.o).toEqual(
        expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=500']),
      );
      const leaseOptions = await one<{ o: string[] | null }>(
        "select reloptions as o from pg_class where relname = 'credit_lease'",
      );
      expect(leaseOptions.o).toEqual(
        expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=500']),
      );
      const size = async () =>
        Number((await one<{ s: number | string }>("select pg_total_relation_size('credit_reservation') as s")).s);
      const dead = async () =>
        Number(
          (
            await one<{ n: number | string }>(
              "select n_dead_tup as n from pg_stat_user_tables where relname = 'credit_reservation'",
            )
          ).n,
        );
      const { id, apiKey } = await app.partner(1_000_000);
      // This machine's PostgreSQL runs with autovacuum off, so the test vacuums when the table's trigger
      // would fire, checked every 5 000 calls (a busy server's calls between two autovacuum naps).
      // 12 batches: the last 40 000 calls would add a row each to a table that bloated, far past the
      // size after the first 20 000. At 20 batches this one test took 98 s of a 608 s PostgreSQL suite.
      const sizes: number[] = [];
      for (let batch = 0; batch < 12; batch++) {
        // Per-request holds (a busy partner's calls would be served from a leased block and leave
        // credit_reservation alone): the path idempotent requests and small balances take.
        await drive(id, 5_000, 16, () => 1, { lease: false });
        await expect.poll(dead, { timeout: 5000 }).toBeGreaterThan(500);
        await db.run('vacuum credit_reservation');
        sizes.push(await size());
      }
      await expect.poll(dead, { timeout: 5000 }).toBe(0);
      const live = await one<{ n: number | string }>('select count(*) as n from credit_reservation');
      expect(Number(live.n)).toBe(0);
      // The space a vacuum frees is reused: after the first batches the table and its indexes grow by a
      // page now and then (index pages are reused only once empty), not by a row per call.
      expect(sizes.at(-1)).toBeLessThanOrEqual(1.1 * (sizes[3] as number));
      expect(sizes.at(-1)).toBeLessThan(1024 * 1024);

      const before = await books(id);
      expect(before).toMatchObject({ usage: 60_000, raw: 60_000, reserved: 0 });
      await db.run(
        "update ledger_entry set created_at = created_at - interval '3 days' where partner_id = ? and id % 2 = 0",
        [id],
      );
      await rollUpLedger(db, retentionCutoff(1));
      const after = await books(id);
      expect(after.rolledUp).toBeGreaterThan(0);
      expect(after.raw + after.rolledUp).toBe(60_000);
      expect(after.balance + after.usage).toBe(1_000_000);
      const from = new Date(Date.now() - 10 * DAY_MS).toISOString().slice(0, 10);
      const to = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
      expect((await usageTotal(apiKey, from, to)).totalCredits).toBe(60_000);
    },
  );
});
