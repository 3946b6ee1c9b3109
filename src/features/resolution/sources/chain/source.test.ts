import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FullnodeStandin, startFullnodeStandin } from '../../../../../test/support/aptos-fullnode-standin.js';
import { UpstreamUnavailableError } from '../../../../platform/upstream/errors.js';
import { ChainReader } from './source.js';

const MODULE = '0x5e4f1c';
const ALICE = `0x${'a1'.repeat(32)}`;
const BOB = `0x${'b2'.repeat(32)}`;
const FUTURE = Math.floor(Date.now() / 1000) + 365 * 86_400;
const PAST = Math.floor(Date.now() / 1000) - 86_400;

const FUNCTIONS = {
  target: 'router::get_target_addr',
  owner: 'router::get_owner_addr',
  expiration: 'router::get_expiration',
  primary: 'router::get_primary_name',
};

describe('chain reader over /v1/view', () => {
  let node: FullnodeStandin;
  let reader: ChainReader;
  beforeAll(async () => {
    node = await startFullnodeStandin({ moduleAddress: MODULE });
    node.setName('alice', null, { target: ALICE, owner: ALICE, expiration: FUTURE });
    node.setName('alice', 'pay', { target: BOB, owner: ALICE, expiration: FUTURE });
    node.setName('old', null, { target: BOB, owner: BOB, expiration: PAST });
    node.setPrimary(ALICE, { domain: 'alice', subdomain: null });
    node.setPrimary(BOB, { domain: 'alice', subdomain: 'pay' });
    reader = new ChainReader({
      rpcUrls: { '126': node.url },
      moduleAddress: MODULE,
      functions: FUNCTIONS,
      timeoutMs: 2000,
      maxBodyBytes: 1 << 20,
    });
  });
  afterAll(() => node.close());

  it('answers forward lookups with target and expiry, sending Move arguments as the Aptos API encodes them', async () => {
    const found = await reader.forward('126', 'alice.snow');
    expect(found).toMatchObject({ name: 'alice.snow', network: '126', owner: ALICE, source: 'chain' });
    expect(found?.expireAt?.getTime()).toBe(FUTURE * 1000);
    expect(node.viewRequests.slice(-2)).toEqual([
      { function: `${MODULE}::router::get_target_addr`, type_arguments: [], arguments: ['alice', { vec: [] }] },
      { function: `${MODULE}::router::get_expiration`, type_arguments: [], arguments: ['alice', { vec: [] }] },
    ]);
    expect((await reader.forward('126', 'pay.alice.snow'))?.owner).toBe(BOB);
    expect(node.viewRequests.at(-1)?.arguments).toEqual(['alice', { vec: ['pay'] }]);
  });

  it('answers null for unregistered and expired names, and for names it cannot express', async () => {
    expect(await reader.forward('126', 'nobody.snow')).toBeNull();
    expect(await reader.expiration('126', 'nobody.snow')).toBeNull();
    expect(await reader.forward('126', 'old.snow')).toBeNull();
    expect(await reader.forward('126', 'a.b.c.snow')).toBeNull();
    expect(await reader.forward('177', 'alice.snow')).toBeNull();
  });

  it('answers expiry and owner', async () => {
    expect((await reader.expiration('126', 'pay.alice.snow'))?.getTime()).toBe(FUTURE * 1000);
    expect(await reader.owner('126', 'pay.alice.snow')).toBe(ALICE);
  });

  it('answers reverse lookups from get_primary_name, sub-names included', async () => {
    expect(await reader.reverse('126', ALICE)).toBe('alice.snow');
    expect(await reader.reverse('126', BOB)).toBe('pay.alice.snow');
    expect(await reader.reverse('126', `0x${'c3'.repeat(32)}`)).toBeNull();
  });

  it('serves the sources interface: batches keyed by name and normalized address', async () => {
    const source = reader.source();
    const names = await source.names('126', ['alice.snow', 'nobody.snow', 'pay.alice.snow']);
    expect([...names.keys()].sort()).toEqual(['alice.snow', 'pay.alice.snow']);
    const primaries = await source.primaryNames('126', [ALICE, `0x${'c3'.repeat(32)}`]);
    expect(Object.fromEntries([...primaries].map(([k, v]) => [k, v.name]))).toEqual({ [ALICE]: 'alice.snow' });
    const chain = await source.chainAddresses('eip155:1', ['126'], ['alice.snow', 'nobody.snow']);
    expect([...chain.entries()]).toEqual([
      ['alice.snow', { owner: ALICE, address: null, network: '126', source: 'chain' }],
    ]);
  });

  it('turns a misnamed view function into an upstream error, not a missing name', async () => {
    const wrong = new ChainReader({
      rpcUrls: { '126': node.url },
      moduleAddress: MODULE,
      functions: { ...FUNCTIONS, expiration: 'router::no_such_function' },
      timeoutMs: 2000,
      maxBodyBytes: 1 << 20,
    });
    await expect(wrong.forward('126', 'alice.snow')).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('fails fast with an upstream error when the fullnode is down or silent', async () => {
    node.failWith(503);
    try {
      await expect(reader.reverse('126', ALICE)).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      node.failWith(null);
    }
    const silent = await import('node:net').then(
      ({ createServer }) =>
        new Promise<import('node:net').Server>((resolve) => {
          const s = createServer(() => {});
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    );
    const port = (silent.address() as import('node:net').AddressInfo).port;
    const slow = new ChainReader({
      rpcUrls: { '126': `http://127.0.0.1:${port}/v1` },
      moduleAddress: MODULE,
      functions: FUNCTIONS,
      timeoutMs: 200,
      maxBodyBytes: 1 << 20,
    });
    const started = Date.now();
    await expect(slow.reverse('126', ALICE)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(Date.now() - started).toBeLessThan(1500);
    silent.close();
  });
});

describe('chain settings', () => {
  it('reads fullnode URLs per network, the module address and view function overrides', async () => {
    const { loadConfig } = await import('../../../../platform/config.js');
    const config = loadConfig({
      MOVEMENT_RPC_URL_126: 'https://mainnet.movementnetwork.xyz/v1',
      MOVEMENT_RPC_URL_250: 'https://testnet.movementnetwork.xyz/v1',
      MNS_MODULE_ADDRESS: MODULE,
      MNS_VIEW_FUNCTIONS: 'primary=movement_names::get_primary_name',
    });
    expect(config.mnsChain.rpcUrls).toEqual({
      '126': 'https://mainnet.movementnetwork.xyz/v1',
      '250': 'https://testnet.movementnetwork.xyz/v1',
    });
    expect(config.mnsChain.functions).toEqual({ ...FUNCTIONS, primary: 'movement_names::get_primary_name' });
  });

  it('names the variable of a bad value', async () => {
    const { loadConfig } = await import('../../../../platform/config.js');
    for (const [env, variable] of [
      [{ MOVEMENT_RPC_URL_126: 'ftp://x' }, 'MOVEMENT_RPC_URL_126'],
      [{ MOVEMENT_RPC_URL_126: 'https://x/v1' }, 'MNS_MODULE_ADDRESS'],
      [{ MNS_MODULE_ADDRESS: 'alice' }, 'MNS_MODULE_ADDRESS'],
      [{ MNS_VIEW_FUNCTIONS: 'target=get_target_addr' }, 'MNS_VIEW_FUNCTIONS'],
      [{ MNS_INDEXER: 'true' }, 'MNS_INDEXER'],
      [{ MNS_INDEXER_PAGE_SIZE: '500' }, 'MNS_INDEXER_PAGE_SIZE'],
      [{ MNS_INDEXER_START_VERSION: '-1' }, 'MNS_INDEXER_START_VERSION'],
    ] as const) {
      expect(() => loadConfig(env), variable).toThrow(variable);
    }
  });
});

describe('public interface over the chain source', () => {
  it('answers names that exist only on chain, after the registry', async () => {
    const { startTestApp } = await import('../../../../../test/support/app.js');
    const node = await startFullnodeStandin({ moduleAddress: MODULE });
    node.setName('chainonly', null, { target: ALICE, owner: ALICE, expiration: FUTURE });
    node.setPrimary(ALICE, { domain: 'chainonly', subdomain: null });
    const app = await startTestApp({ MOVEMENT_RPC_URL_126: node.url, MNS_MODULE_ADDRESS: MODULE });
    try {
      const get = (url: string, query: Record<string, string>) => app.http.inject({ method: 'GET', url, query });
      const reverse = await get('/api/public/identity/name', { address: ALICE, caip2Id: 'move-mvmt:126' });
      expect(reverse.json()).toEqual({ name: 'chainonly.snow', owner: ALICE });
      const forward = await get('/api/public/identity/address', { name: 'chainonly', caip2Id: 'move-mvmt:126' });
      expect(forward.statusCode).toBe(200);
      expect(forward.json()).toMatchObject({ owner: ALICE });
      expect((await get('/api/public/identity/name', { address: BOB, caip2Id: 'move-mvmt:126' })).statusCode).toBe(404);
      node.failWith(503);
      expect((await get('/api/public/identity/name', { address: BOB, caip2Id: 'move-mvmt:126' })).statusCode).toBe(503);
    } finally {
      await app.stop();
      await node.close();
    }
  });
});
