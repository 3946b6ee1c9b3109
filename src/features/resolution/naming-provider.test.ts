import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ALICE,
  ALICE_TESTNET,
  BOB,
  EXPIRED_OWNER,
  importNamesFile,
  longForm,
  NAMES_FILE,
  shortForm,
} from '../../../test/fixtures/mns/index.js';
import { createTestDatabase, usingPostgres } from '../../../test/support/database.js';
import { withTestDatabase } from '../../../test/support/with-database.js';
import { type Database, openDatabase } from '../../platform/db/orm.js';
import { createMnsProvider, MNS_INFO } from './naming-provider.js';
import { seedDemoNames } from './registry/demo.js';
import { countNames, findPrimaryNames } from './registry/store.js';

/** A handle on `target` that records the statements sent through it, to explain them after. */
function recorder(target: Pick<Database, 'query' | 'queryRows' | 'dialect'>) {
  const sent: { sql: string; params: unknown[] }[] = [];
  const recording: Pick<Database, 'query' | 'queryRows' | 'dialect'> = {
    dialect: target.dialect,
    query: <T>(sql: string, params: unknown[] = []) => {
      sent.push({ sql, params });
      return target.query<T>(sql, params);
    },
    queryRows: <T extends unknown[]>(sql: string, params: readonly unknown[] = []) => {
      sent.push({ sql, params: [...params] });
      return target.queryRows<T>(sql, params);
    },
  };
  return { sent, recording };
}

describe('MNS naming provider', () => {
  const { db, database } = withTestDatabase();
  beforeAll(async () => {
    expect((await importNamesFile(database.url, NAMES_FILE)).code).toBe(0);
  });

  it('describes MNS and is always enabled', () => {
    const mns = createMnsProvider(db);
    expect(mns.info).toBe(MNS_INFO);
    expect(mns.info).toMatchObject({ provider: 'mns', source: 'mns', suffixes: ['.snow'], caip2Id: 'move-mvmt:126' });
    expect(mns.status).toEqual({ enabled: true });
  });

  it('resolves forward and reverse, mainnet first, one network when asked', async () => {
    const mns = createMnsProvider(db);
    expect(await mns.resolve('alice.snow')).toBe(ALICE);
    expect(await mns.resolve('bob.snow')).toBe(BOB);
    expect(await mns.reverse(shortForm(ALICE))).toBe('alice.snow');
    expect(await mns.reverse('not an address')).toBeNull();
    const testnet = createMnsProvider(db, ['177']);
    expect(await testnet.resolve('alice.snow')).toBe(ALICE_TESTNET);
    expect(await testnet.reverse(ALICE)).toBeNull();
  });

  it('does not resolve expired names, nor strings that cannot be names', async () => {
    const mns = createMnsProvider(db);
    expect(await mns.resolve('old.snow')).toBeNull();
    expect(await mns.records('old.snow')).toBeNull();
    expect(await mns.reverse(EXPIRED_OWNER)).toBeNull();
    expect(await mns.resolve('not a name')).toBeNull();
    expect(() => mns.normalize('a b')).toThrow();
    expect(mns.normalize('Alice')).toBe('alice.snow');
  });

  it('answers the full record with typed text records', async () => {
    expect(await createMnsProvider(db).records('ALICE')).toEqual({
      name: 'alice.snow',
      ownerAddress: ALICE,
      caip2Id: 'move-mvmt:126',
      avatar: 'https://example.com/alice.png',
      registeredAt: new Date('2025-01-02T03:04:05Z'),
      expireAt: new Date('2099-01-02T03:04:05Z'),
      multichainAddresses: [{ address: '0x000000000000000000000000000000000000dEaD', caip2Id: 'eip155:1' }],
      txtRecords: [
        { key: 'com.twitter', value: 'alice', type: 'social' },
        { key: 'url', value: 'https://alice.example', type: 'url' },
        { key: 'email', value: 'alice@example.com', type: 'email' },
        { key: 'bio', value: 'fixture', type: 'text' },
      ],
    });
  });

  it('answers many names in one statement, in input order, as records() would', async () => {
    const mns = createMnsProvider(db);
    const asked = ['bob.snow', 'ALICE', 'old.snow', 'not a name', 'nobody.snow', 'alice.snow'];
    const query = vi.spyOn(db, 'queryRows');
    let many: Awaited<ReturnType<NonNullable<typeof mns.recordsMany>>>;
    try {
      many = await (mns.recordsMany as NonNullable<typeof mns.recordsMany>)(asked);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    const one = await Promise.all(asked.map((name) => mns.records(name)));
    expect(many).toEqual(one);
    expect(many.map((r) => r?.name ?? null)).toEqual(['bob.snow', 'alice.snow', null, null, null, 'alice.snow']);
    // alice.snow is on both networks: mainnet answers; bob.snow only on testnet.
    expect(many[1]).toMatchObject({ caip2Id: 'move-mvmt:126', ownerAddress: ALICE });
    expect(many[0]).toMatchObject({ caip2Id: 'move-mvmt:177', ownerAddress: BOB });
    expect(await (mns.recordsMany as NonNullable<typeof mns.recordsMany>)([])).toEqual([]);
  });

  it('reads only the columns a reverse lookup answers with', async () => {
    const [row] = await findPrimaryNames(db, '126', [longForm(ALICE)]);
    expect(row).toEqual({ name: 'alice.snow', network: '126', owner: ALICE, ownerKey: longForm(ALICE) });
  });

  it("answers a batch as single lookups answer each key, a name holding the PostgreSQL form's separator too", async () => {
    const odd = `0x${'7'.repeat(64)}`;
    const oddName = 'odd\u0001name.snow'; // written around the importer, whose checks refuse it
    // An unknown key first: every answer then sits at a position other than its row's.
    const keys = [`0x${'9'.repeat(64)}`, longForm(ALICE), longForm(BOB), odd, longForm(ALICE_TESTNET)];
    // Each key's answer in its place, a hole (undefined) where it has none.
    const singly = async (list = keys) =>
      Promise.all(list.map(async (k) => (await findPrimaryNames(db, '126', [k]))[0]));
    // A key that is no normalized address (a comma in it) matches nothing, and must not shift the others.
    const commaFirst = ['0x9,9', longForm(ALICE)];
    expect(await findPrimaryNames(db, '126', commaFirst)).toEqual(await singly(commaFirst));
    expect((await singly())[0]).toBeUndefined();
    expect((await singly())[1]).toBeDefined();
    expect(await findPrimaryNames(db, '126', keys)).toEqual(await singly());
    await db.run(
      "insert into mns_name (name, network, owner, owner_key, is_primary, updated_at) values (?, '126', ?, ?, ?, ?)",
      [oddName, odd, odd, true, new Date()],
    );
    try {
      const found = await findPrimaryNames(db, '126', keys);
      expect(found[3]).toEqual({ name: oddName, network: '126', owner: odd, ownerKey: odd });
      expect(found).toEqual(await singly());
    } finally {
      await db.run('delete from mns_name where name = ?', [oddName]);
    }
  });

  // PostgreSQL's index-only scans depend on vacuum state, not on the SQL.
  it.runIf(!usingPostgres())(
    'answers reverse lookups from the index alone on SQLite (no probe into the table)',
    async () => {
      // The statement findPrimaryNames sends, recorded, then explained on the same database.
      const { sent, recording } = recorder(db);
      // A batch, then a single lookup, which has its own statement.
      await findPrimaryNames(recording, '126', [longForm(ALICE), longForm(BOB)]);
      await findPrimaryNames(recording, '126', [longForm(ALICE)]);
      expect(sent).toHaveLength(2);
      for (const { sql, params } of sent) {
        const plan = await db.query<{ detail: string }>(`explain query plan ${sql}`, params);
        expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING COVERING INDEX mns_name_primary_lookup/);
      }
    },
  );

  it.runIf(usingPostgres())(
    'reads a few keys through the index on PostgreSQL, on a registry of 10 000 names too',
    async () => {
      // The planner counts a key list as 1000 rows: on a small registry it then hashed the whole table.
      const small = await createTestDatabase();
      const registry = await openDatabase(small.url);
      try {
        await registry.run(
          `insert into mns_name (name, network, owner, owner_key, is_primary, updated_at)
         select 'n' || i || '.snow', '126', k, k, true, now()
         from (select i, '0x' || lpad(to_hex(i), 64, '0') as k from generate_series(1, 10000) i) s`,
        );
        await registry.run('analyze mns_name');
        const { sent, recording } = recorder(registry);
        const keys = [7, 70, 700, 7000].map((i) => `0x${i.toString(16).padStart(64, '0')}`);
        const found = await findPrimaryNames(recording, '126', keys);
        expect(found.map((f) => f?.name)).toEqual(['n7.snow', 'n70.snow', 'n700.snow', 'n7000.snow']);
        expect(sent).toHaveLength(1);
        const { sql, params } = sent[0] as (typeof sent)[number];
        const plan = (await registry.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params))
          .map((row) => Object.values(row)[0])
          .join('\n');
        expect(plan).toMatch(/Index (Only )?Scan using mns_name_primary/);
        expect(plan).not.toMatch(/Seq Scan on mns_name/);
      } finally {
        await registry.close();
        await small.drop();
      }
    },
  );

  it('lists live names by prefix, in name order, once across networks', async () => {
    const mns = createMnsProvider(db);
    expect(await mns.candidates('ali', 10)).toEqual(['alice.snow']);
    expect(await mns.candidates('o', 10)).toEqual([]);
    expect(await mns.candidates('pay.', 10)).toEqual(['pay.alice.snow']);
    expect(await mns.candidates('', 10)).toEqual([]);
    const all = await mns.candidates('a', 100);
    expect(all).toEqual([...all].sort());
    expect(await mns.candidates('e', 1)).toEqual(['evm.snow']);
  });

  it('seeds the labelled demo names into an empty registry only', async () => {
    const empty = await createTestDatabase();
    const fresh = await openDatabase(empty.url);
    try {
      const seeded = await seedDemoNames(fresh);
      expect(seeded).toBeGreaterThan(0);
      expect(await countNames(fresh)).toBe(seeded);
      const record = await createMnsProvider(fresh).records('alice.snow');
      expect(record?.txtRecords).toContainEqual(
        expect.objectContaining({ key: 'description', value: expect.stringMatching(/sandbox demo/i) }),
      );
      expect(await seedDemoNames(fresh)).toBe(0);
      expect(await seedDemoNames(db)).toBe(0);
    } finally {
      await fresh.close();
      await empty.drop();
    }
  });
});
