import { Keypair } from '@solana/web3.js';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SnsFixtures } from '../../../../test/fixtures/sns/sns-fixtures.js';
import { type Anvil, startAnvil } from '../../../../test/support/anvil.js';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { deployEns, testAccount } from '../../../../test/support/ens-deploy.js';
import { type SolanaRpcStandin, startSolanaRpcStandin } from '../../../../test/support/solana-rpc-standin.js';
import { evmCoinType } from '../../../platform/chains/registry.js';
import { importNames } from '../../resolution/index.js';

/**
 * The identity search end to end: REST → gateway → identity subgraph → real providers. ENS and
 * Basenames are two ENS deployments on one anvil node, SNS is the Solana JSON-RPC stand-in holding real
 * account layouts, and MNS is the registry table filled through `names:import`.
 */

const SPEC_FIELDS = [
  'avatar',
  'caip2Id',
  'expireAt',
  'logoURI',
  'multichainAddresses',
  'name',
  'ownerAddress',
  'provider',
  'providerName',
  'registeredAt',
  'source',
  'txtRecords',
  'url',
];

const ethAlice = testAccount(1).address;
const ethAliceOnOptimism = testAccount(2).address;
const baseAlice = testAccount(4).address;
const ethAlicex = testAccount(5).address;
const ALICE_EXPIRY = new Date('2031-05-04T03:02:01.000Z');
const solAlice = Keypair.generate();
const MOVE_ALICE = '0x00000000000000000000000000000000000000000000000000000000000a11ce';

const MNS_NAMES = [
  {
    name: 'alice.snow',
    caip2Id: 'move-mvmt:126',
    owner: MOVE_ALICE,
    registeredAt: '2025-01-15T10:00:00Z',
    expireAt: '2099-01-15T10:00:00Z',
    avatar: 'https://img.example/alice.png',
    txtRecords: [
      { key: 'com.twitter', value: 'alice_mns' },
      { key: 'email', value: 'alice@example.com' },
      { key: 'url', value: 'https://alice.example' },
      { key: 'description', value: 'Alice on Movement' },
    ],
    multichainAddresses: [
      { address: ethAlice, caip2Id: 'eip155:1' },
      { address: solAlice.publicKey.toBase58(), caip2Id: 'solana:mainnet-beta' },
    ],
  },
  { name: 'alicebob.snow', caip2Id: 'move-mvmt:177', owner: '0xb0b' },
  { name: 'alicia.snow', caip2Id: 'move-mvmt:126', owner: '0xa11c1a' },
];

let anvil: Anvil;
let ens: Awaited<ReturnType<typeof deployEns>>;
let rpc: SolanaRpcStandin;
let app: TestApp;

beforeAll(async () => {
  [anvil, rpc] = await Promise.all([startAnvil(), startSolanaRpcStandin()]);

  ens = await deployEns(anvil.rpcUrl);
  const ensRegistrar = await ens.deployBaseRegistrar();
  await ens.registerName({
    name: 'alice.eth',
    address: ethAlice,
    coinAddresses: { [evmCoinType(10)]: ethAliceOnOptimism.toLowerCase() as Address },
    texts: { avatar: 'https://example.com/alice.png', 'com.github': 'alice-gh', email: 'alice@example.org' },
  });
  await ens.setExpiry(ensRegistrar, 'alice', ALICE_EXPIRY);
  await ens.registerName({ name: 'alicex.eth', address: ethAlicex });

  // Basenames is ENS deployed on Base: a second, independent registry.
  const basenames = await deployEns(anvil.rpcUrl);
  await basenames.registerName({
    name: 'alice.base.eth',
    coinAddresses: { [evmCoinType(8453)]: baseAlice.toLowerCase() as Address },
    texts: { 'com.twitter': 'alice_base' },
  });

  const sns = new SnsFixtures(rpc);
  const aliceSol = sns.domain('alice', solAlice.publicKey);
  sns.record(aliceSol, 'url', 'https://alice.sol.example', solAlice.publicKey);

  app = await startTestApp({
    ENS_RPC_URL: anvil.rpcUrl,
    ENS_REGISTRY_ADDRESS: ens.registry,
    ENS_BASE_REGISTRAR_ADDRESS: ensRegistrar,
    BASE_RPC_URL: anvil.rpcUrl,
    BASENAMES_REGISTRY_ADDRESS: basenames.registry,
    SOLANA_RPC_URL: rpc.url,
    PROVIDER_TIMEOUT_MS: '1500',
  });
  const summary = await importNames(
    app.services.db,
    MNS_NAMES.map((n) => JSON.stringify(n)),
  );
  expect(summary.errors).toEqual([]);
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([anvil?.stop(), rpc?.close()]);
});

afterEach(() => rpc.fail(null));

const search = (apiKey: string, params: Record<string, string | number>) =>
  app.http.inject({
    method: 'GET',
    url: '/partners/cip/identity/search',
    query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    headers: { 'x-api-key': apiKey },
  });
const credits = async (apiKey: string) =>
  (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json() as {
    creditBalance: number;
    creditUsage: number;
  };

describe('GET /partners/cip/identity/search', () => {
  it('answers a bare label with the MNS hit first, then the other services, in the spec shape, for 1 credit', async () => {
    const { apiKey } = await app.partner(10);
    const res = await search(apiKey, { query: 'alice' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['pagination', 'results']);
    expect(body.results.map((r: { name: string }) => r.name)).toEqual([
      'alice.snow',
      'alice.base.eth',
      'alice.eth',
      'alice.sol',
      'alicebob.snow',
    ]);
    expect(body.pagination).toEqual({ page: 1, perPage: 10, total: 5, totalIsExact: true, totalPages: 1 });
    for (const result of body.results) expect(Object.keys(result).sort()).toEqual(SPEC_FIELDS);

    expect(body.results[0]).toEqual({
      name: 'alice.snow',
      ownerAddress: MOVE_ALICE,
      source: 'mns',
      provider: 'mns',
      providerName: 'Modular Naming Service',
      caip2Id: 'move-mvmt:126',
      avatar: 'https://img.example/alice.png',
      logoURI: 'https://www.modular.name/favicon.ico',
      url: 'https://www.modular.name/',
      expireAt: '2099-01-15T10:00:00.000Z',
      registeredAt: '2025-01-15T10:00:00.000Z',
      multichainAddresses: [
        { address: ethAlice, caip2Id: 'eip155:1', chainName: 'Ethereum', symbol: 'ETH' },
        { address: solAlice.publicKey.toBase58(), caip2Id: 'solana:mainnet-beta', chainName: 'Solana', symbol: 'SOL' },
      ],
      txtRecords: [
        { key: 'com.twitter', value: 'alice_mns', type: 'social' },
        { key: 'email', value: 'alice@example.com', type: 'email' },
        { key: 'url', value: 'https://alice.example', type: 'url' },
        { key: 'description', value: 'Alice on Movement', type: 'text' },
      ],
    });
    // A name on the test network answers with its own chain.
    expect(body.results[4]).toMatchObject({ name: 'alicebob.snow', caip2Id: 'move-mvmt:177', avatar: null });
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 9, creditUsage: 1 }));
  });

  it('resolves a .eth name on chain: owner, typed records, multichain addresses, avatar, expiry', async () => {
    const { apiKey } = await app.partner(10);
    const res = await search(apiKey, { query: 'ALICE.eth' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 1, perPage: 10, total: 1, totalIsExact: true, totalPages: 1 });
    const [alice] = body.results;
    expect(alice).toMatchObject({
      name: 'alice.eth',
      ownerAddress: ethAlice,
      source: 'ens',
      provider: 'ens',
      providerName: 'ENS',
      caip2Id: 'eip155:1',
      avatar: 'https://example.com/alice.png',
      url: 'https://ens.domains/',
      expireAt: ALICE_EXPIRY.toISOString(),
      registeredAt: null,
    });
    expect(alice.txtRecords).toEqual(
      expect.arrayContaining([
        { key: 'com.github', value: 'alice-gh', type: 'social' },
        { key: 'email', value: 'alice@example.org', type: 'email' },
        { key: 'avatar', value: 'https://example.com/alice.png', type: 'url' },
      ]),
    );
    expect(alice.txtRecords).toHaveLength(3);
    expect(alice.multichainAddresses).toEqual([
      { address: ethAlice, caip2Id: 'eip155:1', chainName: 'Ethereum', symbol: 'ETH' },
      { address: ethAliceOnOptimism, caip2Id: 'eip155:10', chainName: 'Optimism', symbol: 'ETH' },
    ]);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 9, creditUsage: 1 }));
  });

  it('sends .base.eth to Basenames (longest suffix) and .sol to SNS', async () => {
    const { apiKey } = await app.partner(10);
    const base = (await search(apiKey, { query: 'alice.base.eth' })).json();
    expect(base.results).toHaveLength(1);
    expect(base.results[0]).toMatchObject({
      name: 'alice.base.eth',
      provider: 'basenames',
      caip2Id: 'eip155:8453',
      ownerAddress: baseAlice,
      txtRecords: [{ key: 'com.twitter', value: 'alice_base', type: 'social' }],
      multichainAddresses: [{ address: baseAlice, caip2Id: 'eip155:8453', chainName: 'Base', symbol: 'ETH' }],
    });
    const sol = (await search(apiKey, { query: 'alice.sol' })).json();
    expect(sol.results).toEqual([
      expect.objectContaining({
        name: 'alice.sol',
        provider: 'sns',
        caip2Id: 'solana:mainnet-beta',
        ownerAddress: solAlice.publicKey.toBase58(),
        expireAt: null,
        txtRecords: [{ key: 'url', value: 'https://alice.sol.example', type: 'url' }],
        multichainAddresses: [
          {
            address: solAlice.publicKey.toBase58(),
            caip2Id: 'solana:mainnet-beta',
            chainName: 'Solana',
            symbol: 'SOL',
          },
        ],
      }),
    ]);
    const none = (await search(apiKey, { query: 'nobody.eth' })).json();
    expect(none).toEqual({
      results: [],
      pagination: { page: 1, perPage: 10, total: 0, totalIsExact: true, totalPages: 0 },
    });
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 7, creditUsage: 3 }));
  });

  it('lists names resolved from other services earlier as prefix matches', async () => {
    const { apiKey } = await app.partner(10);
    // Nobody has looked alicex.eth up yet: a chain cannot list names by prefix.
    const before = (await search(apiKey, { query: 'alic' })).json();
    expect(before.results.map((r: { name: string }) => r.name)).not.toContain('alicex.eth');
    await search(apiKey, { query: 'alicex.eth' });
    const after = (await search(apiKey, { query: 'alic' })).json();
    expect(after.results.map((r: { name: string }) => r.name)).toContain('alicex.eth');
    expect(after.results.find((r: { name: string }) => r.name === 'alicex.eth')).toMatchObject({
      provider: 'ens',
      ownerAddress: ethAlicex,
    });
  });

  it('pages stably: perPage 50 works, and pages of 2 add up to the whole list', async () => {
    const { apiKey } = await app.partner(20);
    const all = (await search(apiKey, { query: 'ali', perPage: 50 })).json();
    expect(all.pagination).toMatchObject({ page: 1, perPage: 50 });
    const names = all.results.map((r: { name: string }) => r.name);
    expect(names.slice(0, 3)).toEqual(['alice.snow', 'alicebob.snow', 'alicia.snow']);
    expect(all.pagination.total).toBe(names.length);
    const paged: string[] = [];
    const pages = Math.ceil(names.length / 2);
    for (let page = 1; page <= pages; page++) {
      const body = (await search(apiKey, { query: 'ali', page, perPage: 2 })).json();
      expect(body.pagination).toEqual({ page, perPage: 2, total: names.length, totalIsExact: true, totalPages: pages });
      paged.push(...body.results.map((r: { name: string }) => r.name));
    }
    expect(paged).toEqual(names);
    const beyond = (await search(apiKey, { query: 'ali', page: pages + 1, perPage: 2 })).json();
    expect(beyond.results).toEqual([]);
  });

  it.each([
    [{ query: 'alice', perPage: 51 }, /perPage/],
    [{ query: 'alice', perPage: 0 }, /perPage/],
    [{ query: 'alice', perPage: 2.5 }, /perPage/],
    [{ query: 'alice', page: 0 }, /page/],
    [{ query: 'alice', page: -1 }, /page/],
    [{ query: 'alice', page: 'two' }, /page/],
    [{}, /query/],
    [{ query: '' }, /query/],
    [{ query: '   ' }, /query/],
    [{ query: 'a'.repeat(256) }, /query/],
    [{ query: 'a..eth' }, /a\.\.eth.*not a valid ENS name/],
    [{ query: 'al ice' }, /spaces/],
  ])('refuses %j with a free 400 in the partner error shape', async (params, message) => {
    const { apiKey } = await app.partner(5);
    const res = await search(apiKey, params as Record<string, string | number>);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(message) });
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('finds the primary names of an address: ENS for an EVM address, MNS for a Movement one', async () => {
    const { apiKey } = await app.partner(10);
    await ens.setPrimaryName(1, 'alice.eth');
    const evm = await search(apiKey, { query: ethAlice });
    expect(evm.statusCode).toBe(200);
    expect(evm.json().results.map((r: { name: string; provider: string }) => [r.name, r.provider])).toEqual([
      ['alice.eth', 'ens'],
    ]);
    const moveOwner = `0x${'5a'.repeat(32)}`;
    const imported = await importNames(app.services.db, [
      JSON.stringify({ name: 'mover', caip2Id: 'move-mvmt:126', owner: moveOwner, primary: true }),
    ]);
    expect(imported.errors).toEqual([]);
    const move = await search(apiKey, { query: moveOwner });
    expect(move.json().results.map((r: { name: string; ownerAddress: string }) => [r.name, r.ownerAddress])).toEqual([
      ['mover.snow', moveOwner],
    ]);
    const nobody = await search(apiKey, { query: `0x${'12'.repeat(20)}` });
    expect(nobody.json()).toMatchObject({ results: [], pagination: { total: 0 } });
    expect(await credits(apiKey)).toMatchObject({ creditBalance: 7, creditUsage: 3 });
  });

  it('requires an API key', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/partners/cip/identity/search?query=alice' });
    expect(res.statusCode).toBe(401);
  });

  it('drops a failing provider and still answers, charged', async () => {
    const { apiKey } = await app.partner(10);
    const names = async () =>
      (await search(apiKey, { query: 'alice' })).json().results.map((r: { name: string }) => r.name);
    const healthy: string[] = await names();
    expect(healthy).toContain('alice.sol');
    rpc.fail('http500');
    const res = await search(apiKey, { query: 'alice' });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { name: string }) => r.name)).toEqual(healthy.filter((n) => n !== 'alice.sol'));
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 8, creditUsage: 2 }));
  });

  it('drops a provider that does not answer within PROVIDER_TIMEOUT_MS', async () => {
    const { apiKey } = await app.partner(10);
    rpc.fail('hang');
    const started = Date.now();
    const res = await search(apiKey, { query: 'alice' });
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { provider: string }) => r.provider)).not.toContain('sns');
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(4000);
  });

  it('answers a free 503 when every provider consulted fails', async () => {
    const { apiKey } = await app.partner(10);
    rpc.fail('rpcError');
    const res = await search(apiKey, { query: 'alice.sol' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: expect.stringMatching(/Solana Name Service is unavailable/),
    });
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 10, creditUsage: 0 }));
  });

  it('gives GraphQL the same answer, with the failed providers named', async () => {
    const { apiKey } = await app.partner(10);
    const rest = (await search(apiKey, { query: 'alice', perPage: 3 })).json();
    rpc.fail('http500');
    const res = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      payload: {
        query: `query($q: String!) { identitySearch(query: $q, perPage: 3) {
          results { name ownerAddress source provider providerName caip2Id avatar logoURI url expireAt registeredAt
            multichainAddresses { address caip2Id chainName symbol } txtRecords { key value type } }
          pagination { page perPage total totalIsExact totalPages }
          unavailableProviders } }`,
        variables: { q: 'alice' },
      },
    });
    const body = res.json();
    expect(body.errors).toBeUndefined();
    const { unavailableProviders, ...page } = body.data.identitySearch;
    expect(unavailableProviders).toEqual(['sns']);
    // The first three do not involve SNS, so both answers agree on them.
    expect(page.results).toEqual(rest.results);
    expect(page.pagination).toEqual({ ...rest.pagination, total: rest.pagination.total - 1 });
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 8, creditUsage: 2 }));
  });
});
