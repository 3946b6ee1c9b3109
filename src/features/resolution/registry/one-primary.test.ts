import { beforeEach, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../../test/support/with-database.js';
import { ONE_PRIMARY_MESSAGE } from '../../../platform/db/migrations/0014-sqlite-one-primary-index.js';
import { setChainPrimary, setChainTarget } from './chain-writes.js';

const ALICE = `0x${'a1'.repeat(32)}`;
const BOB = `0x${'b2'.repeat(32)}`;
// The rule's own refusal, on either database, not any error a malformed statement would also raise.
const REFUSED = new RegExp(`mns_name_primary_unique|${ONE_PRIMARY_MESSAGE}`);

/**
 * At most one primary name per address and network, whatever writes the registry: PostgreSQL states it
 * as a partial unique index, SQLite as triggers over its one owner-keyed index (migration 0014). Each
 * write below goes around the importer and the chain writer, which never attempt it.
 */
describe('the registry holds at most one primary name per address and network', () => {
  const { db } = withTestDatabase();
  const at = new Date('2026-01-01T00:00:00Z');
  const insert = (name: string, network: string, owner: string, primary: boolean) =>
    db.run('insert into mns_name (name, network, owner, owner_key, is_primary, updated_at) values (?, ?, ?, ?, ?, ?)', [
      name,
      network,
      owner,
      owner,
      primary,
      at,
    ]);
  const primaries = async () =>
    (
      await db.query<{ name: string; network: string }>(
        'select name, network from mns_name where is_primary order by name, network',
      )
    ).map((r) => `${r.name}@${r.network}`);

  beforeEach(async () => {
    await db.run('delete from mns_name');
    await insert('alice.snow', '126', ALICE, true);
    await insert('alt.snow', '126', ALICE, false);
  });

  it('refuses a second primary name inserted for the same address and network', async () => {
    await expect(insert('third.snow', '126', ALICE, true)).rejects.toThrow(REFUSED);
    expect(await primaries()).toEqual(['alice.snow@126']);
  });

  it('refuses an update that makes another of its names primary', async () => {
    await expect(db.run(`update mns_name set is_primary = true where name = 'alt.snow'`)).rejects.toThrow(REFUSED);
    expect(await primaries()).toEqual(['alice.snow@126']);
  });

  it('refuses a primary name moved onto an address that has one, by an update or an upsert', async () => {
    await insert('bob.snow', '126', BOB, true);
    await expect(
      db.run('update mns_name set owner = ?, owner_key = ? where name = ?', [ALICE, ALICE, 'bob.snow']),
    ).rejects.toThrow(REFUSED);
    await expect(
      db.run(
        `insert into mns_name (name, network, owner, owner_key, is_primary, updated_at) values ('bob.snow', '126', ?, ?, true, ?)
         on conflict (name, network) do update set owner = excluded.owner, owner_key = excluded.owner_key`,
        [ALICE, ALICE, at],
      ),
    ).rejects.toThrow(REFUSED);
    expect(await primaries()).toEqual(['alice.snow@126', 'bob.snow@126']);
  });

  it('allows one primary name per network, a rewrite of the primary itself, and a swap in two steps', async () => {
    await insert('alice.snow', '177', ALICE, true);
    await db.run(`update mns_name set is_primary = true, updated_at = ? where name = 'alice.snow'`, [at]);
    await db.run(`update mns_name set is_primary = false where name = 'alice.snow' and network = '126'`);
    await db.run(`update mns_name set is_primary = true where name = 'alt.snow'`);
    expect(await primaries()).toEqual(['alice.snow@177', 'alt.snow@126']);
  });

  it("leaves the chain writer's own rule intact: a chain name becomes primary only once the other is cleared", async () => {
    await db.run('delete from mns_name');
    for (const name of ['c1.snow', 'c2.snow'])
      await setChainTarget(db, { name, network: '126', target: ALICE, expireAt: at, registeredAt: null, now: at });
    await setChainPrimary(db, { network: '126', address: ALICE, name: 'c1.snow', now: at });
    await setChainPrimary(db, { network: '126', address: ALICE, name: 'c2.snow', now: at });
    expect(await primaries()).toEqual(['c2.snow@126']);
  });
});
