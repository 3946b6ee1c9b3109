import { beforeEach, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../../../test/support/database.js';
import { withTestDatabase } from '../../../../test/support/with-database.js';
import { importNames } from './import.js';
import type { ImportDatabase } from './import-write.js';

const owner = (i: number) => `0x${(i + 1).toString(16).padStart(64, '0')}`;
const line = (fields: Record<string, unknown>) => JSON.stringify({ caip2Id: 'move-mvmt:126', ...fields });

describe('importNames write path', () => {
  const { db } = withTestDatabase();
  beforeEach(async () => {
    await db.run('delete from mns_name');
  });

  const stored = async () =>
    db.query<{ name: string; owner: string; owner_key: string; is_primary: unknown; avatar: string | null }>(
      'select name, owner, owner_key, is_primary, avatar from mns_name order by name',
    );
  const isPrimary = (v: unknown) => v === true || v === 1;

  /** A trigger that refuses the name `refused.snow`, as a database refuses what validation let through. */
  const refuseName = async () => {
    if (usingPostgres()) {
      await db.run(`create or replace function refuse_test_name() returns trigger language plpgsql as $$
        begin
          if new.name = 'refused.snow' then raise exception 'refused by test trigger'; end if;
          return new;
        end $$`);
      await db.run(
        'create trigger refuse_test_name before insert on mns_name for each row execute function refuse_test_name()',
      );
    } else {
      await db.run(`create trigger refuse_test_name before insert on mns_name when new.name = 'refused.snow'
        begin select raise(abort, 'refused by test trigger'); end`);
    }
  };
  const allowName = async () => {
    await db.run(`drop trigger refuse_test_name${usingPostgres() ? ' on mns_name' : ''}`);
    if (usingPostgres()) await db.run('drop function refuse_test_name()');
  };

  it('stores the normalized owner key whatever form the owner was written in', async () => {
    const summary = await importNames(db, [
      line({ name: 'full', owner: owner(0x41) }),
      line({ name: 'short', owner: '0x42' }),
      line({ name: 'upper', owner: `0x${'AB'.repeat(32)}` }),
    ]);
    expect(summary).toMatchObject({ imported: 3, rejected: 0 });
    expect((await stored()).map((r) => [r.name, r.owner, r.owner_key])).toEqual([
      ['full.snow', owner(0x41), owner(0x41)],
      ['short.snow', '0x42', owner(0x41)],
      ['upper.snow', `0x${'AB'.repeat(32)}`, `0x${'ab'.repeat(32)}`],
    ]);
  });

  it('splits a large batch into several statements and keeps the last primary of an owner across them', async () => {
    // 6 000 lines in one transaction: more rows than one SQLite statement binds (1 250) and one
    // PostgreSQL statement carries (5 000), with one owner's primaries spread over all of them.
    const lines = Array.from({ length: 6000 }, (_, i) =>
      line({ name: `big${i}`, owner: i % 1000 === 0 ? owner(0) : owner(i), primary: true }),
    );
    const summary = await importNames(db, lines, { batchSize: 6000 });
    expect(summary).toMatchObject({ lines: 6000, imported: 6000, rejected: 0 });
    const rows = await stored();
    expect(rows).toHaveLength(6000);
    const ownerZero = rows.filter((r) => r.owner === owner(0));
    expect(ownerZero).toHaveLength(6);
    expect(ownerZero.filter((r) => isPrimary(r.is_primary)).map((r) => r.name)).toEqual(['big5000.snow']);
    expect(rows.filter((r) => isPrimary(r.is_primary))).toHaveLength(5995);
  });

  it('applies batches in file order: a later batch replaces what an earlier one wrote', async () => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      line({ name: `n${i % 7}`, owner: owner(i % 3), avatar: `https://a.example/${i}`, primary: i % 2 === 0 }),
    );
    const summary = await importNames(db, lines, { batchSize: 4 });
    expect(summary).toMatchObject({ imported: 30, rejected: 0 });
    // The model: each line replaces its name's record, and a primary line clears its owner's other primaries.
    const model = new Map<string, { owner: string; avatar: string; primary: boolean }>();
    lines.forEach((text, i) => {
      const { name, owner: o, primary } = JSON.parse(text) as { name: string; owner: string; primary: boolean };
      if (primary) for (const r of model.values()) if (r.owner === o) r.primary = false;
      model.set(`${name}.snow`, { owner: o, avatar: `https://a.example/${i}`, primary });
    });
    const rows = await stored();
    expect(
      rows.map((r) => ({ name: r.name, owner: r.owner, avatar: r.avatar, primary: isPrimary(r.is_primary) })),
    ).toEqual([...model].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, r]) => ({ name, ...r })));
  });

  /**
   * The test database as the importer sees it, counting the transactions it opens and those that failed,
   * and keeping the owner keys each one's inserted rows carry (SQLite's statements only).
   */
  const observed = (): ImportDatabase & { transactions: number; failed: number; owners: string[][] } => {
    const seen: ImportDatabase & { transactions: number; failed: number; owners: string[][] } = {
      dialect: db.dialect,
      transactions: 0,
      failed: 0,
      owners: [],
      transaction: async (fn) => {
        seen.transactions += 1;
        const owners: string[] = [];
        seen.owners.push(owners);
        try {
          return await db.transaction((tx) =>
            fn({
              query: tx.query.bind(tx),
              run: (sql, params = []) => {
                // SQLite's insert binds the batch's time, then 12 values a row, owner_key the fifth.
                if (!usingPostgres() && sql.startsWith('insert'))
                  for (let i = 5; i < params.length; i += 12) owners.push(params[i] as string);
                return tx.run(sql, params);
              },
            }),
          );
        } catch (err) {
          seen.failed += 1;
          throw err;
        }
      },
    };
    return seen;
  };

  it("writes a batch that moves an owner's primary off a stored name in one transaction", async () => {
    await importNames(db, [line({ name: 's', owner: owner(1), primary: true })]);
    const counted = observed();
    // s stays the owner's but stops being primary, after a line that makes a its primary: the stored s is
    // cleared before a is written, or a would be a second primary.
    const summary = await importNames(counted, [
      line({ name: 'a', owner: owner(1), primary: true }),
      line({ name: 's', owner: owner(1) }),
    ]);
    expect(summary).toMatchObject({ imported: 2, rejected: 0 });
    expect(counted.transactions).toBe(1);
    expect((await stored()).map((r) => `${r.name}${isPrimary(r.is_primary) ? ' primary' : ''}`)).toEqual([
      'a.snow primary',
      's.snow',
    ]);
  });

  it('matches a model of line-by-line upserts across repeated imports over stored names', async () => {
    // Stored primaries the next import keeps, moves to another name, hands to another owner or clears:
    // the demotion skips a name the batch keeps as its owner's primary, and must still leave at most one.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const model = new Map<string, { owner: string; primary: boolean }>();
    // Small batches make several windows of several owner slices on SQLite (a window is 8 batches).
    for (const [round, batchSize] of [1000, 3, 1000, 7, 2, 1000].entries()) {
      const lines = Array.from({ length: 60 }, (_, i) => {
        // The first round's names again in later rounds, in another order, most of them unchanged.
        const n = round === 0 ? i : random(40);
        const o = round === 0 || random(4) > 0 ? n % 9 : random(9);
        return { name: `m${n}`, owner: owner(o), primary: round === 0 ? n % 2 === 0 : random(3) > 0 };
      });
      for (const { name, owner: o, primary } of lines) {
        if (primary) for (const r of model.values()) if (r.owner === o) r.primary = false;
        model.set(`${name}.snow`, { owner: o, primary });
      }
      // A transaction the database refused (a second primary, say) would be written again line by line
      // and could still end right: count them.
      const counted = observed();
      const summary = await importNames(
        counted,
        lines.map((l) => line(l)),
        { batchSize },
      );
      expect(summary).toMatchObject({ imported: 60, rejected: 0 });
      expect(counted.failed).toBe(0);
      const rows = await stored();
      expect(rows.map((r) => ({ name: r.name, owner: r.owner, primary: isPrimary(r.is_primary) }))).toEqual(
        [...model].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, r]) => ({ name, ...r })),
      );
    }
  });

  it.skipIf(usingPostgres())(
    'writes a window of 8 batches in owner order on SQLite, a batch of rows a transaction',
    async () => {
      // Owners in no order (37 and 84 are coprime: every owner once); half the lines primary.
      const lines = Array.from({ length: 84 }, (_, i) =>
        line({ name: `w${i}`, owner: owner((i * 37) % 84), primary: i % 2 === 0 }),
      );
      const recorded = observed();
      const summary = await importNames(recorded, lines, { batchSize: 5 });
      expect(summary).toMatchObject({ imported: 84, rejected: 0 });
      // Two windows of 40 lines, each 8 transactions of 5 rows, then the 4 lines left.
      expect(recorded.owners.map((o) => o.length)).toEqual([...Array(16).fill(5), 4]);
      for (const window of [recorded.owners.slice(0, 8), recorded.owners.slice(8, 16)]) {
        const written = window.flat();
        expect(written).toEqual([...written].sort());
      }
      expect((await stored()).filter((r) => isPrimary(r.is_primary))).toHaveLength(42);
    },
  );

  it('keeps an owner whose names span a slice in one transaction, and orders owners alike in their first 32 bits', async () => {
    // Owners that differ only past their first 8 hex digits, each with several names, in file order
    // interleaved: the number-keyed sort must still group each owner and order them by their whole key.
    const alike = (i: number) => `0x00000000${i.toString(16).padStart(56, '0')}`;
    const lines = Array.from({ length: 24 }, (_, i) =>
      line({ name: `s${i}`, owner: alike((i * 5) % 4), primary: i >= 20 }),
    );
    const recorded = observed();
    const summary = await importNames(recorded, lines, { batchSize: 4 });
    expect(summary).toMatchObject({ imported: 24, rejected: 0 });
    expect(recorded.failed).toBe(0);
    if (!usingPostgres()) {
      // Four owners of 6 names: slices of 4 rows grow to the owner's last row, so one owner a transaction.
      expect(recorded.owners.map((o) => new Set(o).size)).toEqual([1, 1, 1, 1]);
      expect(recorded.owners.map((o) => o[0])).toEqual([alike(0), alike(1), alike(2), alike(3)]);
    }
    const rows = await stored();
    // Line 20 onwards are primary, one a owner: 20, 21, 22, 23 are owners 0, 1, 2, 3.
    expect(rows.filter((r) => isPrimary(r.is_primary)).map((r) => r.name)).toEqual([
      's20.snow',
      's21.snow',
      's22.snow',
      's23.snow',
    ]);
  });

  it('stores control characters, quotes, backslashes and lone surrogates exactly as given', async () => {
    // A JSON array is written as the array literal of PostgreSQL's statement where its escapes agree;
    // these are where they do not (\t, \u0001, \ud800), beside where they do (" and \\).
    const avatars = ['https://a.example/x\ty\u0001z.png', 'https://a.example/"q"\\{a,b}.png'];
    const value = 'line\nbreak\ttab\u0001 "quoted" back\\slash \ud800 lone \u{1f600}';
    const summary = await importNames(
      db,
      avatars.map((avatar, i) =>
        line({ name: `ctl${i}`, owner: owner(i), avatar, txtRecords: [{ key: 'description', value }] }),
      ),
    );
    expect(summary).toMatchObject({ imported: 2, rejected: 0 });
    const rows = await db.query<{ avatar: string; txt_records: string }>(
      'select avatar, txt_records from mns_name order by name',
    );
    expect(rows.map((r) => r.avatar)).toEqual(avatars);
    for (const r of rows) expect(JSON.parse(r.txt_records)).toEqual([{ key: 'description', value, type: 'text' }]);
  });

  it('reports a line the database refuses by its number and writes every other line of its batch and the next', async () => {
    await refuseName();
    try {
      const summary = await importNames(
        db,
        [
          line({ name: 'a', owner: owner(1) }),
          line({ name: 'refused', owner: owner(1) }),
          '',
          line({ name: 'b', owner: owner(1), primary: true }),
          line({ name: 'c', owner: owner(1), primary: true }),
          line({ name: 'd', owner: owner(2) }),
          line({ name: 'a', owner: owner(3) }),
        ],
        { batchSize: 3 },
      );
      expect(summary).toMatchObject({ lines: 6, imported: 5, rejected: 1 });
      expect(summary.errors).toEqual([
        { line: 2, message: expect.stringMatching(/^not written: .*refused by test trigger/) },
      ]);
      expect(
        (await stored()).map(
          (r) =>
            `${r.name} ${r.owner === owner(3) ? 3 : r.owner === owner(1) ? 1 : 2}${isPrimary(r.is_primary) ? ' primary' : ''}`,
        ),
      ).toEqual(['a.snow 3', 'b.snow 1', 'c.snow 1 primary', 'd.snow 2']);
    } finally {
      await allowName();
    }
  });

  it('writes a window again in file order when the database refuses one of its slices', async () => {
    await importNames(db, [
      line({ name: 'x', owner: owner(1), primary: true }),
      line({ name: 'y', owner: owner(5), primary: true }),
    ]);
    await refuseName();
    try {
      const seen = observed();
      // One window of 8 lines; on SQLite slices of 2 rows by owner: [a, y], [d, b], [refused, c]. The
      // first two are written (x demoted, y moved to owner 2) before the third is refused.
      const summary = await importNames(
        seen,
        [
          line({ name: 'a', owner: owner(1), primary: true }),
          line({ name: 'y', owner: owner(2), primary: true }),
          line({ name: 'b', owner: owner(5), primary: true }),
          line({ name: 'refused', owner: owner(9) }),
          line({ name: 'c', owner: owner(9), primary: true }),
          line({ name: 'd', owner: owner(3) }),
        ],
        { batchSize: 2 },
      );
      expect(summary).toMatchObject({ lines: 6, imported: 5, rejected: 1 });
      expect(summary.errors).toEqual([
        { line: 4, message: expect.stringMatching(/^not written: .*refused by test trigger/) },
      ]);
      // SQLite: the third slice, then the batch of lines 3–4 written again, then line 4 alone.
      expect(seen.failed).toBe(usingPostgres() ? 2 : 3);
      expect(
        (await stored()).map((r) => `${r.name} ${BigInt(r.owner)}${isPrimary(r.is_primary) ? ' primary' : ''}`),
      ).toEqual([
        'a.snow 2 primary',
        'b.snow 6 primary',
        'c.snow 10 primary',
        'd.snow 4',
        'x.snow 2',
        'y.snow 3 primary',
      ]);
    } finally {
      await allowName();
    }
  });
});
