import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.js';
import { runAdmin } from '../../../platform/cli/admin.js';
import { type Database, openDatabase } from '../../../platform/db/orm.js';
import { commands } from '../../commands.js';
import { grantCredits, MAX_GRANT_CREDITS, PartnerInputError } from '../partners.js';

/**
 * What the admin CLI reads from its arguments: credit amounts in decimal digits only and in one range on
 * SQLite and PostgreSQL, and real days only.
 */
describe('admin CLI input', () => {
  let database: TestDatabase;
  let db: Database;
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(
      commands,
      argv,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {
        DATABASE_URL: database.url,
      },
    );
    return { code, out, err: err.join('\n'), last: out.at(-1) ?? '' };
  };
  const books = async (id: string) => {
    const [row] = await db.query<{ b: number | string }>('select credit_balance as b from partner where id = ?', [id]);
    const grants = await db.query<{ c: number | string }>(
      "select credits as c from ledger_entry where partner_id = ? and kind = 'grant' order by id",
      [id],
    );
    return { balance: Number(row?.b), grants: grants.map((g) => Number(g.c)) };
  };
  const create = async (email: string, credits = '1') => {
    const created = await run('partner:create', '--name', 'Acme', '--email', email, '--credits', credits, '--json');
    expect(created.code, created.err).toBe(0);
    return JSON.parse(created.last).id as string;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    expect((await run('partner:list')).code).toBe(0);
    db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('reads --credits in decimal digits only: 0x10 is not 16, 1e3 is not 1000', async () => {
    const id = await create('digits@acme.test');
    for (const credits of ['0x10', '1e3', '0b11', '1.0', ' 5', '+5']) {
      const granted = await run('credits:grant', '--partner', id, '--credits', credits);
      expect(granted.code, credits).toBe(2);
      expect(granted.err).toMatch(/--credits must be a whole number in decimal digits/);
      const created = await run(
        'partner:create',
        '--name',
        'X',
        '--email',
        `x${credits.length}@acme.test`,
        '--credits',
        credits,
      );
      expect(created.code, credits).toBe(2);
    }
    expect((await run('partner:list', '--json')).last).not.toMatch(/x\d@acme\.test/);
    expect(await books(id)).toEqual({ balance: 1, grants: [1] });
    expect((await run('credits:grant', '--partner', id, '--credits', '16')).code).toBe(0);
    expect(await books(id)).toEqual({ balance: 17, grants: [1, 16] });
  });

  it('holds every grant to 2^31 - 1 credits, on both databases alike, and the books stay whole', async () => {
    const id = await create('range@acme.test');
    const tooMany = String(MAX_GRANT_CREDITS + 1);
    const refused = await run('credits:grant', '--partner', id, '--credits', tooMany);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/from 1 to 2147483647, got "2147483648"/);
    const createdTooMany = await run(
      'partner:create',
      '--name',
      'Big',
      '--email',
      'big@acme.test',
      '--credits',
      tooMany,
    );
    expect(createdTooMany.code).toBe(2);
    expect(createdTooMany.err).toMatch(/from 0 to 2147483647/);
    // The one check below the CLI: whoever calls it.
    await expect(grantCredits(db, id, MAX_GRANT_CREDITS + 1)).rejects.toBeInstanceOf(PartnerInputError);
    expect(await books(id)).toEqual({ balance: 1, grants: [1] });

    // The largest grant works, twice: the balance (64-bit on both) may pass 2^31.
    for (let i = 0; i < 2; i++) {
      const granted = await run('credits:grant', '--partner', id, '--credits', String(MAX_GRANT_CREDITS), '--json');
      expect(granted.code, granted.err).toBe(0);
    }
    expect(await books(id)).toEqual({
      balance: 1 + 2 * MAX_GRANT_CREDITS,
      grants: [1, MAX_GRANT_CREDITS, MAX_GRANT_CREDITS],
    });
    const created = await run(
      'partner:create',
      '--name',
      'Max',
      '--email',
      'max@acme.test',
      '--credits',
      String(MAX_GRANT_CREDITS),
      '--json',
    );
    expect(created.code, created.err).toBe(0);
    expect(JSON.parse(created.last).creditBalance).toBe(MAX_GRANT_CREDITS);
  });

  it('refuses a grant that would take a balance past what a JS number holds exactly', async () => {
    const id = await create('full@acme.test');
    await db.run('update partner set credit_balance = ? where id = ?', [Number.MAX_SAFE_INTEGER - 5, id]);
    const refused = await run('credits:grant', '--partner', id, '--credits', '10');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/balance would exceed/);
    expect(await books(id)).toEqual({ balance: Number.MAX_SAFE_INTEGER - 5, grants: [1] });
    expect((await run('credits:grant', '--partner', id, '--credits', '5')).code).toBe(0);
    expect(await books(id)).toEqual({ balance: Number.MAX_SAFE_INTEGER, grants: [1, 5] });
  });

  it('refuses an impossible day for usage rather than rolling it over', async () => {
    await create('days@acme.test');
    for (const from of ['2026-02-30', '2025-02-29T00:00:00Z', '2026-06-31']) {
      const result = await run('usage', '--partner', 'days@acme.test', '--from', from, '--to', '2026-07-01');
      expect(result.code, from).toBe(2);
      expect(result.err).toMatch(/from must be an ISO 8601 date or date-time of a real day/);
    }
    const leap = await run(
      'usage',
      '--partner',
      'days@acme.test',
      '--from',
      '2028-02-29',
      '--to',
      '2028-03-01',
      '--json',
    );
    expect(leap.code, leap.err).toBe(0);
    expect(JSON.parse(leap.last)).toMatchObject({ from: '2028-02-29T00:00:00.000Z', totalCredits: 0 });
  });
});
