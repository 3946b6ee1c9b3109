import { Directive, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { chainById } from '../../platform/chains/registry.js';
import { buildSupergraph } from '../../platform/gateway/supergraph.js';
import { buildSubgraph, type SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { accountsSubgraph } from '../accounts/index.js';
import { subgraphs } from '../index.js';
import { importNames } from '../resolution/index.js';
import { asUrl, DateTimeScalar, UrlScalar } from './scalars.js';
import { identitySubgraph } from './subgraph.js';

/**
 * Stands in for the bridge subgraph when the real one is not composed yet: it owns `Chain` and resolves
 * references from the shared chain registry, as the bridge does for chains outside its catalogue.
 */
@Resolver()
class StubBridgeResolver {
  @Query(() => Boolean)
  stubBridgeUp(): boolean {
    return true;
  }
}

@ObjectType('Chain')
@Directive('@key(fields: "caip2Id")')
class StubChain {
  @Field() caip2Id!: string;
  @Field() name!: string;
  @Field() nativeToken!: string;
}

const stubBridge: SubgraphDefinition = {
  name: 'bridge',
  resolvers: [StubBridgeResolver],
  orphanedTypes: [StubChain],
  references: {
    Chain: (ref) => {
      const chain = chainById(String(ref.caip2Id));
      return chain ? { caip2Id: chain.caip2Id, name: chain.name, nativeToken: chain.nativeToken } : null;
    },
  },
};

const ALICE = {
  name: 'alice.snow',
  caip2Id: 'move-mvmt:126',
  owner: '0xa11ce',
  registeredAt: '2025-01-15T10:00:00+02:00',
  multichainAddresses: [
    { address: '0x000000000000000000000000000000000000dEaD', caip2Id: 'eip155:1' },
    { address: 'cosmos1alice', caip2Id: 'cosmos:cosmoshub-4' },
  ],
};

describe('identity subgraph', () => {
  let app: TestApp;
  beforeAll(async () => {
    const withBridge = subgraphs.some((s) => s.name === 'bridge') ? subgraphs : [...subgraphs, stubBridge];
    app = await startTestApp({}, undefined, { subgraphs: withBridge });
    const summary = await importNames(app.services.db, [JSON.stringify(ALICE)]);
    expect(summary.errors).toEqual([]);
  });
  afterAll(() => app.stop());

  const gql = async (apiKey: string | undefined, query: string) =>
    (
      await app.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
        payload: { query },
      })
    ).json();
  const balance = async (apiKey: string) =>
    (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json()
      .creditBalance;

  it('selects chain details across subgraphs; chainName and symbol come from the registry either way', async () => {
    const { apiKey } = await app.partner(5);
    const body = await gql(
      apiKey,
      `{ identitySearch(query: "alice") { results { name registeredAt
          multichainAddresses { address caip2Id chainName symbol chain { caip2Id name nativeToken } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.identitySearch.results).toEqual([
      {
        name: 'alice.snow',
        // Stored with an offset, answered in UTC.
        registeredAt: '2025-01-15T08:00:00.000Z',
        multichainAddresses: [
          {
            address: '0x000000000000000000000000000000000000dEaD',
            caip2Id: 'eip155:1',
            chainName: 'Ethereum',
            symbol: 'ETH',
            chain: { caip2Id: 'eip155:1', name: 'Ethereum', nativeToken: 'ETH' },
          },
          // A chain nobody here knows: kept, with nothing invented about it.
          { address: 'cosmos1alice', caip2Id: 'cosmos:cosmoshub-4', chainName: null, symbol: null, chain: null },
        ],
      },
    ]);
    expect(await balance(apiKey)).toBe(4);
  });

  it('lists the naming providers with their status for free', async () => {
    const { apiKey } = await app.partner(5);
    const body = await gql(
      apiKey,
      '{ namingProviders { provider source providerName caip2Id suffixes url enabled reason } }',
    );
    expect(body.data.namingProviders).toEqual([
      expect.objectContaining({ provider: 'mns', suffixes: ['.snow'], enabled: true, reason: null }),
      expect.objectContaining({
        provider: 'ens',
        suffixes: ['.eth'],
        enabled: false,
        reason: 'ENS_RPC_URL is not set',
      }),
      expect.objectContaining({
        provider: 'basenames',
        caip2Id: 'eip155:8453',
        suffixes: ['.base.eth'],
        enabled: false,
        reason: 'BASE_RPC_URL is not set',
      }),
      expect.objectContaining({
        provider: 'sns',
        suffixes: ['.sol'],
        enabled: false,
        reason: 'SOLANA_RPC_URL is not set',
      }),
      expect.objectContaining({
        provider: 'unstoppable',
        caip2Id: 'eip155:137',
        suffixes: expect.arrayContaining(['.crypto', '.x', '.nft', '.wallet']),
        enabled: false,
        reason: 'UNS_POLYGON_RPC_URL or UNS_ETH_RPC_URL is not set',
      }),
      expect.objectContaining({
        provider: 'spaceid',
        caip2Id: 'eip155:56',
        suffixes: ['.bnb', '.arb'],
        enabled: false,
        reason: 'SPACEID_BSC_RPC_URL or SPACEID_ARB_RPC_URL is not set',
      }),
      expect.objectContaining({
        provider: 'aptos-names',
        source: 'ans',
        caip2Id: 'aptos:1',
        suffixes: ['.apt'],
        enabled: false,
        reason: 'APTOS_RPC_URL is not set',
      }),
      expect.objectContaining({
        provider: 'suins',
        source: 'suins',
        caip2Id: 'sui:mainnet',
        suffixes: ['.sui'],
        enabled: false,
        reason: 'SUI_GRAPHQL_URL is not set',
      }),
      expect.objectContaining({
        provider: 'farcaster',
        suffixes: ['.fcast.id'],
        enabled: false,
        reason: 'FARCASTER_HUB_URL is not set',
      }),
      expect.objectContaining({
        provider: 'lens',
        caip2Id: 'eip155:232',
        suffixes: ['.lens'],
        enabled: false,
        reason: 'LENS_API_URL is not set',
      }),
    ]);
    expect(await balance(apiKey)).toBe(5);
    // Disabled providers are skipped by a bare label, and a name they own is refused for free as a name
    // this server cannot serve: neither "not found" nor a temporary outage worth retrying.
    const bare = await gql(apiKey, '{ identitySearch(query: "alice") { results { name } pagination { total } } }');
    expect(bare.data.identitySearch).toEqual({ results: [{ name: 'alice.snow' }], pagination: { total: 1 } });
    const owned = await gql(apiKey, '{ identitySearch(query: "alice.eth") { results { name } } }');
    expect(owned.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(owned.errors[0].message).toBe('ENS (.eth) is not enabled on this server');
    expect(await balance(apiKey)).toBe(4);
  });

  it('refuses bad arguments as BAD_USER_INPUT without charging, and needs a key', async () => {
    const { apiKey } = await app.partner(5);
    for (const args of ['query: "alice", perPage: 51', 'query: "alice", page: 0', 'query: " "', 'query: "a..snow"']) {
      const body = await gql(apiKey, `{ identitySearch(${args}) { results { name } } }`);
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(await balance(apiKey)).toBe(5);
    const anonymous = await gql(undefined, '{ identitySearch(query: "alice") { results { name } } }');
    expect(anonymous.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('identity subgraph composition', () => {
  it('composes without the bridge subgraph: the Chain reference alone still answers its key', async () => {
    const supergraph = await buildSupergraph([accountsSubgraph, identitySubgraph]);
    expect(supergraph.sdl).toMatch(/type Chain\s+@join__type\(graph: IDENTITY, key: "caip2Id", resolvable: false\)/);
    expect(supergraph.prices.get('query.identitySearch')).toBe(1);
    expect(supergraph.prices.get('query.namingProviders')).toBe(0);
  });

  it('declares Chain as a non-resolvable entity and the scalars DateTime and URL', () => {
    const { sdl } = buildSubgraph(identitySubgraph);
    expect(sdl).toMatch(/type Chain @key\(fields: "caip2Id", resolvable: false\)/);
    expect(sdl).toMatch(/scalar DateTime/);
    expect(sdl).toMatch(/scalar URL/);
    expect(sdl).toMatch(/identitySearch\(.*\): IdentitySearchPage! @credits\(price: 1\)/s);
  });
});

describe('scalars', () => {
  it('serialises DateTime as ISO-8601 UTC strings', () => {
    expect(DateTimeScalar.serialize(new Date('2031-05-04T03:02:01Z'))).toBe('2031-05-04T03:02:01.000Z');
    expect(DateTimeScalar.serialize('2025-01-15T10:00:00+02:00')).toBe('2025-01-15T08:00:00.000Z');
    expect(() => DateTimeScalar.serialize('yesterday')).toThrow();
  });

  it('keeps only values the URL scalar can serialise', () => {
    expect(asUrl('https://ens.domains')).toBe('https://ens.domains/');
    expect(asUrl('ipfs://bafy/a.png')).toBe('ipfs://bafy/a.png');
    expect(asUrl('not a url')).toBeNull();
    expect(asUrl(null)).toBeNull();
  });

  it('serialises URL as new URL does, the first time and every time after, and refuses what it refuses', () => {
    const texts = [
      'https://www.modular.name/favicon.ico',
      'https://WWW.Modular.Name',
      'https://www.modular.name',
      'HTTPS://example.com/a/../b?x=1#f',
      'https://example.com:443/%7Euser/ é',
      'ipfs://bafy/a.png',
      'data:image/png;base64,AAAA',
      `data:image/png;base64,${'A'.repeat(4000)}`,
    ];
    for (let round = 0; round < 3; round++) {
      for (const text of texts) expect(UrlScalar.serialize(text)).toBe(new URL(text).toString());
      expect(UrlScalar.serialize(new URL(texts[0] as string))).toBe(texts[0]);
      expect(UrlScalar.serialize(null)).toBeNull();
      expect(() => UrlScalar.serialize('not a url')).toThrow(TypeError);
    }
    // More distinct texts than it remembers: still the same answers.
    for (let i = 0; i < 3000; i++) {
      const text = `https://Example.com/avatar/${i % 1500}.png`;
      expect(UrlScalar.serialize(text)).toBe(new URL(text).toString());
    }
  });
});
