import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../../test/support/anvil.js';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { deployEns, testAccount } from '../../../../test/support/ens-deploy.js';
import { postGraphql } from '../../../../test/support/graphql.js';
import { deployUns } from '../../../../test/support/uns-deploy.js';

/**
 * Unstoppable Domains and SPACE ID end to end: REST and GraphQL → gateway → identity subgraph → the
 * real providers, reading the real UNSRegistry/ProxyReader (`@unstoppabledomains/uns` artifacts) and
 * two ENS deployments standing in for SPACE ID's `.bnb` and `.arb` registries, all on one anvil node
 * (the providers take the chain from their settings, not from the node).
 * brad.crypto's ETH and BTC records are UD's documented example (`@unstoppabledomains/resolution` README).
 */

const BRAD_ETH = '0x8aaD44321A86b170879d7A244c1e8d360c99DdA8';
const BRAD_BTC = 'bc1q359khn0phg58xgezyqsuuaha28zkwx047c0c3y';
const alice = testAccount(1).address;
const bob = testAccount(2).address;

let anvil: Anvil;
let app: TestApp;

beforeAll(async () => {
  anvil = await startAnvil();
  const uns = await deployUns(anvil.rpcUrl);
  await uns.mintTld('crypto');
  await uns.mint({
    name: 'brad.crypto',
    owner: 1,
    withReverse: true,
    records: {
      'crypto.ETH.address': BRAD_ETH,
      'crypto.BTC.address': BRAD_BTC,
      'social.twitter.username': 'brad',
      'whois.email.value': 'brad@example.com',
    },
  });
  const bnb = await deployEns(anvil.rpcUrl);
  await bnb.registerName({ name: 'alice.bnb', address: alice, texts: { 'com.twitter': 'alice_bnb' } });
  await bnb.setPrimaryName(1, 'alice.bnb');
  const arb = await deployEns(anvil.rpcUrl);
  await arb.registerName({ name: 'bob.arb', address: bob, texts: { url: 'https://bob.example' } });
  await arb.setPrimaryName(2, 'bob.arb');

  app = await startTestApp({
    UNS_POLYGON_RPC_URL: anvil.rpcUrl,
    UNS_POLYGON_PROXY_READER_ADDRESS: uns.proxyReader,
    SPACEID_BSC_RPC_URL: anvil.rpcUrl,
    SPACEID_BSC_REGISTRY_ADDRESS: bnb.registry,
    SPACEID_ARB_RPC_URL: anvil.rpcUrl,
    SPACEID_ARB_REGISTRY_ADDRESS: arb.registry,
    PROVIDER_TIMEOUT_MS: '1500',
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await anvil?.stop();
});

const search = (apiKey: string, query: string) =>
  app.http.inject({
    method: 'GET',
    url: '/partners/cip/identity/search',
    query: { query },
    headers: { 'x-api-key': apiKey },
  });
const credits = async (apiKey: string) =>
  (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json() as {
    creditBalance: number;
    creditUsage: number;
  };

describe('identity search over Unstoppable Domains and SPACE ID', () => {
  it('answers brad.crypto from the UNS ProxyReader: owner, chain addresses, text records, for 1 credit', async () => {
    const { apiKey } = await app.partner(5);
    const res = await search(apiKey, 'Brad.Crypto');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([
      {
        name: 'brad.crypto',
        ownerAddress: BRAD_ETH,
        source: 'unstoppable',
        provider: 'unstoppable',
        providerName: 'Unstoppable Domains',
        caip2Id: 'eip155:137',
        avatar: null,
        logoURI: 'https://docs.unstoppabledomains.com/images/logo.png',
        url: 'https://unstoppabledomains.com/',
        expireAt: null,
        registeredAt: null,
        multichainAddresses: [
          { address: BRAD_ETH, caip2Id: 'eip155:1', chainName: 'Ethereum', symbol: 'ETH' },
          {
            address: BRAD_BTC,
            caip2Id: 'bip122:000000000019d6689c085ae165831e93',
            chainName: 'Bitcoin',
            symbol: 'BTC',
          },
        ],
        txtRecords: [
          { key: 'social.twitter.username', value: 'brad', type: 'social' },
          { key: 'whois.email.value', value: 'brad@example.com', type: 'email' },
        ],
      },
    ]);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('answers .bnb from BNB Chain and .arb from Arbitrum, through the ENS code', async () => {
    const { apiKey } = await app.partner(5);
    const bnb = (await search(apiKey, 'alice.bnb')).json();
    expect(bnb.results).toEqual([
      expect.objectContaining({
        name: 'alice.bnb',
        provider: 'spaceid',
        source: 'spaceid',
        providerName: 'SPACE ID',
        caip2Id: 'eip155:56',
        ownerAddress: alice,
        url: 'https://space.id/',
        txtRecords: [{ key: 'com.twitter', value: 'alice_bnb', type: 'social' }],
        multichainAddresses: [{ address: alice, caip2Id: 'eip155:1', chainName: 'Ethereum', symbol: 'ETH' }],
      }),
    ]);
    const arb = (await search(apiKey, 'bob.arb')).json();
    expect(arb.results).toEqual([
      expect.objectContaining({
        name: 'bob.arb',
        provider: 'spaceid',
        caip2Id: 'eip155:42161',
        ownerAddress: bob,
        txtRecords: [{ key: 'url', value: 'https://bob.example', type: 'url' }],
      }),
    ]);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 3, creditUsage: 2 }));
  });

  it('looks a bare label up under .crypto and .bnb, charged once', async () => {
    const { apiKey } = await app.partner(5);
    const brad = (await search(apiKey, 'brad')).json();
    expect(brad.results.map((r: { name: string }) => r.name)).toEqual(['brad.crypto']);
    const aliceLabel = (await search(apiKey, 'alice')).json();
    expect(aliceLabel.results.map((r: { name: string }) => r.name)).toEqual(['alice.bnb']);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 3, creditUsage: 2 }));
  });

  it('answers names that are not registered with no result', async () => {
    const { apiKey } = await app.partner(5);
    for (const query of ['nobody.crypto', 'nobody.bnb', 'nobody.arb']) {
      const res = await search(apiKey, query);
      expect(res.statusCode, query).toBe(200);
      expect(res.json().results, query).toEqual([]);
    }
  });

  it('refuses names neither service can hold as a free 400', async () => {
    const { apiKey } = await app.partner(5);
    for (const query of ['bad_name.crypto', 'bad_name.bnb']) {
      const res = await search(apiKey, query);
      expect(res.statusCode, query).toBe(400);
    }
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('finds the primary names of an address in both services', async () => {
    const { apiKey } = await app.partner(5);
    const res = await search(apiKey, alice);
    expect(res.statusCode, res.body).toBe(200);
    const found = res.json().results.map((r: { name: string; provider: string }) => [r.provider, r.name]);
    expect(found.sort()).toEqual([
      ['spaceid', 'alice.bnb'],
      ['unstoppable', 'brad.crypto'],
    ]);
    const bobs = (await search(apiKey, bob)).json().results;
    expect(bobs.map((r: { name: string }) => r.name)).toEqual(['bob.arb']);
  });

  it('answers evmPrimaryName on BNB Chain, Arbitrum and Polygon from the service living there', async () => {
    const { apiKey } = await app.partner(5);
    const query = `query($address: String!, $chainId: Int) {
      evmPrimaryName(address: $address, chainId: $chainId) { name chainId provider }
    }`;
    const ask = async (address: string, chainId: number) =>
      (await postGraphql(app, { query, variables: { address, chainId } }, apiKey)).json().data?.evmPrimaryName;
    expect(await ask(alice, 56)).toEqual({ name: 'alice.bnb', chainId: 56, provider: 'spaceid' });
    expect(await ask(bob, 42161)).toEqual({ name: 'bob.arb', chainId: 42161, provider: 'spaceid' });
    expect(await ask(bob, 56)).toBeNull();
    expect(await ask(alice, 137)).toEqual({ name: 'brad.crypto', chainId: 137, provider: 'unstoppable' });
  });

  it('lists both providers as enabled', async () => {
    const { apiKey } = await app.partner(5);
    const res = await postGraphql(app, { query: '{ namingProviders { provider suffixes enabled reason } }' }, apiKey);
    const listed = res.json().data.namingProviders as { provider: string }[];
    expect(listed.find((p) => p.provider === 'unstoppable')).toMatchObject({ enabled: true, reason: null });
    expect(listed.find((p) => p.provider === 'spaceid')).toEqual({
      provider: 'spaceid',
      suffixes: ['.bnb', '.arb'],
      enabled: true,
      reason: null,
    });
  });
});
