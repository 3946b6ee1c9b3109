import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type FullnodeStandin, startFullnodeStandin } from '../../../../test/support/aptos-fullnode-standin.js';
import { ChainReader } from '../sources/chain/source.js';
import { readCursor } from './cursor.js';
import { MnsIndexer } from './indexer.js';

/*
 * Event shapes are Aptos Names' (aptos-labs/aptos-names-contracts, core_v2/sources/v2_1_domains.move:
 * RegisterNameEvent, SetTargetAddressEvent, RenewNameEvent, SetReverseLookupEvent), encoded as the Aptos
 * REST API encodes Move values; the `curr_domain_suffix` field is Snowball's addition to
 * SetReverseLookupEvent (its `movement_names` documentation).
 */
const MODULE = '0x5e4f1c';
const addr = (byte: string) => `0x${byte.repeat(32)}`;
const ALICE = addr('a1');
const BOB = addr('b2');
const CAROL = addr('c3');
const DAVE = addr('d4');
const NOW = Math.floor(Date.now() / 1000);
const YEAR = NOW + 365 * 86_400;
const TWO_YEARS = NOW + 2 * 365 * 86_400;
const none = { vec: [] };
const some = (v: string) => ({ vec: [v] });

const quiet = { info() {}, warn() {}, debug() {} };

function buildChain(node: FullnodeStandin, moduleEvent = node.event) {
  const ev = moduleEvent.bind(node);
  const register = (domain: string, sub: string | null, exp: number) =>
    ev('RegisterNameEvent', {
      domain_name: domain,
      subdomain_name: sub ? some(sub) : none,
      registration_fee_octas: '100000000',
      expiration_time_secs: String(exp),
    });
  const target = (domain: string, sub: string | null, exp: number, to: string | null) =>
    ev('SetTargetAddressEvent', {
      domain_name: domain,
      subdomain_name: sub ? some(sub) : none,
      expiration_time_secs: String(exp),
      new_address: to ? some(to) : none,
    });
  const reverse = (account: string, domain: string | null, exp: number, extra: Record<string, unknown> = {}) =>
    ev('SetReverseLookupEvent', {
      account_addr: account,
      prev_domain_name: none,
      prev_subdomain_name: none,
      prev_expiration_time_secs: none,
      curr_domain_name: domain ? some(domain) : none,
      curr_subdomain_name: none,
      curr_expiration_time_secs: domain ? some(String(exp)) : none,
      ...extra,
    });

  node.addCheckpoint(); // 0
  node.addTransaction({
    sender: ALICE,
    events: [register('alice', null, YEAR), target('alice', null, YEAR, ALICE), reverse(ALICE, 'alice', YEAR)],
  }); // 1
  node.addTransaction({
    sender: BOB,
    events: [register('bob', null, YEAR), target('bob', null, YEAR, BOB), reverse(BOB, 'bob', YEAR)],
  }); // 2
  node.addCheckpoint(); // 3
  node.addTransaction({ sender: ALICE, events: [register('alice', 'pay', YEAR), target('alice', 'pay', YEAR, ALICE)] }); // 4
  // MNS clears a primary name when its target changes; the indexer must not need an event saying so.
  node.addTransaction({ sender: BOB, events: [target('bob', null, YEAR, CAROL)] }); // 5
  node.addTransaction({
    sender: ALICE,
    events: [
      ev('RenewNameEvent', {
        domain_name: 'alice',
        subdomain_name: none,
        renewal_fee_octas: '100000000',
        expiration_time_secs: String(TWO_YEARS),
        target_address: some(ALICE),
        is_primary_name: true,
      }),
    ],
  }); // 6
  node.addTransaction({
    sender: DAVE,
    events: [
      node.event('RegisterNameEvent', {
        domain_name: 'intruder',
        subdomain_name: none,
        expiration_time_secs: String(YEAR),
      }),
    ].map((e) => ({ ...e, type: e.type.replace(MODULE, '0xdead') })),
  }); // 7: another module's event of the same name
  node.addTransaction({
    sender: DAVE,
    events: [
      register('dave', null, YEAR),
      target('dave', null, YEAR, DAVE),
      reverse(DAVE, 'dave', YEAR, { curr_domain_suffix: some('snow') }),
      // An expired name: registered on chain, never answered.
      register('gone', null, NOW - 60),
      target('gone', null, NOW - 60, DAVE),
    ],
  }); // 8
  node.addTransaction({ sender: ALICE, success: false, events: [register('failed', null, YEAR)] }); // 9
}

describe('MNS indexer', () => {
  let app: TestApp;
  let node: FullnodeStandin;
  const indexer = (pageSize: number) =>
    new MnsIndexer(
      app.services.db,
      new ChainReader({
        rpcUrls: { '126': node.url },
        moduleAddress: MODULE,
        functions: {
          target: 'router::get_target_addr',
          owner: 'router::get_owner_addr',
          expiration: 'router::get_expiration',
          primary: 'router::get_primary_name',
        },
        timeoutMs: 2000,
        maxBodyBytes: 1 << 20,
      }),
      { moduleAddress: MODULE, pageSize, startVersion: 0n, log: quiet },
    );
  const rows = () =>
    app.services.db.query<Record<string, unknown>>(
      'select name, network, owner, owner_key, is_primary, expire_at, registered_at, source from mns_name order by name, network',
    );
  const primaryOf = (address: string) =>
    app.http.inject({ method: 'GET', url: '/api/public/identity/name', query: { address, caip2Id: 'move-mvmt:126' } });

  beforeAll(async () => {
    node = await startFullnodeStandin({ moduleAddress: MODULE });
    buildChain(node);
    app = await startTestApp();
    // An operator's import overrides the chain: the indexer leaves it alone.
    await app.services.db.run(
      `insert into mns_name (name, network, owner, owner_key, is_primary, updated_at) values ('dave.snow', '177', ?, ?, false, ?)`,
      [CAROL, CAROL, new Date()],
    );
  });
  afterAll(async () => {
    await app?.stop();
    await node?.close();
  });

  it('resumes after a restart mid-way, builds the registry from events, and answers from it', async () => {
    const first = indexer(3);
    const step = await first.step('126');
    expect(step).toMatchObject({ fromVersion: 0n, nextVersion: 3n, caughtUp: false });
    expect((await rows()).map((r) => r.name)).toEqual(['alice.snow', 'bob.snow', 'dave.snow']);
    expect((await primaryOf(BOB)).json()).toEqual({ name: 'bob.snow', owner: BOB });

    // A new process: starts from the stored cursor, not from the beginning.
    const second = indexer(3);
    await second.catchUp();
    expect(node.pageRequests).toEqual(['0', '3', '6', '9']);
    expect((await readCursor(app.services.db, '126'))?.nextVersion).toBe(10n);

    const byName = Object.fromEntries((await rows()).map((r) => [`${r.name}@${r.network}`, r]));
    expect(Object.keys(byName).sort()).toEqual([
      'alice.snow@126',
      'bob.snow@126',
      'dave.snow@126',
      'dave.snow@177',
      'gone.snow@126',
      'pay.alice.snow@126',
    ]);
    expect(byName['alice.snow@126']).toMatchObject({ owner: ALICE, source: 'chain' });
    expect(new Date(byName['alice.snow@126']?.expire_at as string).getTime()).toBe(TWO_YEARS * 1000);
    expect(byName['alice.snow@126']?.registered_at).not.toBeNull();
    expect(byName['bob.snow@126']).toMatchObject({ owner: CAROL, source: 'chain' });
    expect(byName['dave.snow@177']).toMatchObject({ owner: CAROL, source: 'import' });

    expect((await primaryOf(ALICE)).json()).toEqual({ name: 'alice.snow', owner: ALICE });
    // bob.snow now targets Carol: Bob's primary name went with the target, and Carol has none.
    expect((await primaryOf(BOB)).statusCode).toBe(404);
    expect((await primaryOf(CAROL)).statusCode).toBe(404);
    expect((await primaryOf(DAVE)).json()).toEqual({ name: 'dave.snow', owner: DAVE });
    const forward = await app.http.inject({
      method: 'GET',
      url: '/api/public/identity/address',
      query: { name: 'gone', caip2Id: 'move-mvmt:126' },
    });
    expect(forward.statusCode).toBe(404);
  });

  it('replays already indexed versions without changing anything', async () => {
    const before = await rows();
    await app.services.db.run('delete from mns_indexer_cursor');
    await indexer(4).catchUp();
    expect(await rows()).toEqual(before);
  });

  it('reports its lag in /readyz', async () => {
    node.addCheckpoint();
    node.addCheckpoint();
    await indexer(100).step('126');
    let ready = (await app.http.inject({ method: 'GET', url: '/readyz' })).json();
    expect(ready.mnsIndexer).toEqual([
      expect.objectContaining({ network: '126', nextVersion: '12', lagVersions: '0' }),
    ]);

    for (let i = 0; i < 3; i++) node.addCheckpoint();
    // One version of three: two left behind the head it saw.
    await indexer(1).step('126');
    ready = (await app.http.inject({ method: 'GET', url: '/readyz' })).json();
    expect(ready.mnsIndexer[0]).toMatchObject({ nextVersion: '13', ledgerVersion: '14', lagVersions: '2' });
  });
});

describe('npm run indexer', () => {
  it('catches up with --once, logging its progress and lag, and exits', async () => {
    const { spawn } = await import('node:child_process');
    const { createTestDatabase } = await import('../../../../test/support/database.js');
    const { openDatabase } = await import('../../../platform/db/orm.js');
    const node = await startFullnodeStandin({ moduleAddress: MODULE });
    buildChain(node);
    const database = await createTestDatabase();
    try {
      const child = spawn(process.execPath, ['--import', './test/support/ts-loader.mjs', 'src/indexer.ts', '--once'], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          MOVEMENT_RPC_URL_126: node.url,
          MNS_MODULE_ADDRESS: MODULE,
          MNS_INDEXER_PAGE_SIZE: '4',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
      });
      child.stderr.on('data', (c) => {
        out += c;
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, out).toBe(0);
      const progress = out
        .split('\n')
        .filter((l) => l.includes('mns indexer progress'))
        .map((l) => JSON.parse(l));
      expect(progress.map((p) => p.nextVersion)).toEqual(['4', '8', '10']);
      expect(progress.at(-1)).toMatchObject({ network: '126', lagVersions: '0', lagSeconds: 0 });
      const db = await openDatabase(database.url);
      try {
        const names = await db.query<{ name: string }>(
          `select name from mns_name where source = 'chain' order by name`,
        );
        expect(names.map((r) => r.name)).toEqual([
          'alice.snow',
          'bob.snow',
          'dave.snow',
          'gone.snow',
          'pay.alice.snow',
        ]);
      } finally {
        await db.close();
      }
    } finally {
      await node.close();
      await database.drop();
    }
  }, 60_000);
});
