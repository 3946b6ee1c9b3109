import { SnowstormSDK } from '@snowballmoney/mns-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BARDOCK,
  bulkOwner,
  CAROL,
  CAROL_ETH,
  CAROL_RESOLVER,
  CAROL_SOL,
  DAVE,
  MAINNET_BULK,
  PAY_CAROL,
  TESTNET_BULK,
  UPSTREAM_NAMES,
} from '../../../../test/fixtures/mns/upstream.js';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type MnsUpstreamStandin, startMnsUpstream } from '../../../../test/support/mns-upstream-standin.js';

/**
 * With only MNS_UPSTREAM_URL set (an empty local registry, no chain), every public endpoint answers names
 * that exist only upstream, through the upstream's own public interface.
 */
describe('public interface over an upstream MNS public API', () => {
  let upstream: MnsUpstreamStandin;
  let app: TestApp;
  let sdk: SnowstormSDK;
  beforeAll(async () => {
    upstream = await startMnsUpstream(UPSTREAM_NAMES, { chainAddresses: true });
    // No cache: every test sees the upstream calls its requests cause.
    app = await startTestApp({ MNS_UPSTREAM_URL: upstream.publicUrl, MNS_UPSTREAM_CACHE_TTL_SECONDS: '0' });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.http.server.address() as { port: number };
    sdk = new SnowstormSDK({ baseUrl: `http://127.0.0.1:${port}/api/public/`, timeout: 5000 });
  });
  afterAll(async () => {
    await app?.stop();
    await upstream?.close();
  });

  const get = (url: string, query?: Record<string, string>) => app.http.inject({ method: 'GET', url, query });
  const post = (url: string, payload: object) => app.http.inject({ method: 'POST', url, payload });

  it('the published client works end to end on upstream-only names', async () => {
    expect(await sdk.getIdentityAddress('carol.snow', 'move-mvmt:mainnet')).toEqual({
      owner: CAROL,
      resolverAddress: CAROL_RESOLVER,
      caip2Id: 'move-mvmt:126',
      subIdentities: [{ name: 'pay.carol.snow', address: PAY_CAROL }],
    });
    expect(await sdk.getIdentityName(DAVE, 'move-mvmt:testnet')).toEqual({ name: 'dave.snow', owner: DAVE });
    expect(await sdk.getIdentityMetadata('carol')).toEqual({
      metadata: [
        { key: 'com.twitter', value: 'carol' },
        { key: 'url', value: 'https://carol.example' },
        { key: 'avatar', value: 'https://example.com/carol.png' },
      ],
    });
    expect(await sdk.getIdentityNames({ addresses: [CAROL, DAVE, '0x1'] })).toEqual({
      data: { [CAROL]: { name: 'carol.snow', owner: CAROL }, [DAVE]: { name: 'dave.snow', owner: DAVE } },
    });
    expect(await sdk.getIdentityAddresses({ names: ['carol', 'nobody.snow'], caip2Id: 'move-mvmt:*' })).toEqual({
      data: [
        { owner: CAROL, resolverAddress: CAROL_RESOLVER },
        { owner: null, resolverAddress: null },
      ],
    });
  });

  it('answers 404 for what the upstream does not know, like for local names', async () => {
    expect((await get('/api/public/identity/address', { name: 'nobody', caip2Id: 'move-mvmt:126' })).statusCode).toBe(
      404,
    );
    expect((await get('/api/public/identity/address', { name: 'dave', caip2Id: 'move-mvmt:126' })).statusCode).toBe(
      404,
    );
    expect((await get('/api/public/identity/name', { address: '0xdead', caip2Id: 'move-mvmt:*' })).statusCode).toBe(
      404,
    );
    expect((await get('/api/public/identity/metadata/nobody.snow')).statusCode).toBe(404);
  });

  it('answers a name on move-mvmt:250 (Bardock), and covers it with *', async () => {
    const on250 = await get('/api/public/identity/address', { name: 'bardock', caip2Id: 'move-mvmt:250' });
    expect(on250.statusCode).toBe(200);
    expect(on250.json()).toMatchObject({ owner: BARDOCK, caip2Id: 'move-mvmt:250' });
    expect(
      (await get('/api/public/identity/address', { name: 'bardock', caip2Id: 'move-mvmt:*' })).json(),
    ).toMatchObject({
      owner: BARDOCK,
      caip2Id: 'move-mvmt:250',
    });
    // testnet keeps meaning 177.
    expect(
      (await get('/api/public/identity/address', { name: 'bardock', caip2Id: 'move-mvmt:testnet' })).statusCode,
    ).toBe(404);
    expect((await get('/api/public/identity/name', { address: BARDOCK, caip2Id: 'move-mvmt:250' })).json()).toEqual({
      name: 'bardock.snow',
      owner: BARDOCK,
    });
  });

  it("answers another chain's CAIP-2 id with the name's address there in resolverAddress", async () => {
    const eth = await get('/api/public/identity/address', { name: 'carol', caip2Id: 'eip155:1' });
    expect(eth.statusCode).toBe(200);
    expect(eth.json()).toMatchObject({ owner: CAROL, resolverAddress: CAROL_ETH, caip2Id: 'eip155:1' });
    const sol = await get('/api/public/identity/address', {
      name: 'carol.snow',
      caip2Id: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    });
    expect(sol.json()).toMatchObject({ owner: CAROL, resolverAddress: CAROL_SOL });
    const none = await get('/api/public/identity/address', { name: 'carol', caip2Id: 'eip155:8453' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/no address on eip155:8453/);
    expect((await sdk.getIdentityAddress('carol', 'eip155:1')).resolverAddress).toBe(CAROL_ETH);
  });

  it('serves the /public-identity/* aliases like their spec twins', async () => {
    const pairs: [string, string, Record<string, string> | object | undefined, 'GET' | 'POST'][] = [
      [
        '/api/public/identity/address',
        '/api/public/public-identity/address',
        { name: 'carol', caip2Id: 'move-mvmt:126' },
        'GET',
      ],
      [
        '/api/public/identity/address',
        '/api/public/public-identity/address',
        { name: 'nobody', caip2Id: 'move-mvmt:126' },
        'GET',
      ],
      ['/api/public/identity/address', '/api/public/public-identity/address', { name: 'carol', caip2Id: 'bad' }, 'GET'],
      [
        '/api/public/identity/name',
        '/api/public/public-identity/name',
        { address: CAROL, caip2Id: 'move-mvmt:*' },
        'GET',
      ],
      ['/api/public/identity/metadata/carol.snow', '/api/public/public-identity/metadata/carol.snow', undefined, 'GET'],
      ['/api/public/identity/names', '/api/public/public-identity/names', { addresses: [CAROL, DAVE] }, 'POST'],
    ];
    for (const [spec, alias, input, method] of pairs) {
      const ask = (url: string) =>
        method === 'GET' ? get(url, input as Record<string, string> | undefined) : post(url, input as object);
      const [a, b] = [await ask(spec), await ask(alias)];
      expect(b.statusCode, alias).toBe(a.statusCode);
      expect(b.json(), alias).toEqual(a.json());
    }
  });

  it('a 1000-address batch makes at most one upstream call per network', async () => {
    const addresses = [
      ...Array.from({ length: MAINNET_BULK }, (_, i) => bulkOwner(0x1000, i)),
      ...Array.from({ length: TESTNET_BULK }, (_, i) => bulkOwner(0x5000, i)),
      ...Array.from({ length: 1000 - MAINNET_BULK - TESTNET_BULK }, (_, i) => bulkOwner(0x9000, i)),
    ];
    upstream.resetCounts();
    const res = await post('/api/public/identity/names', { addresses });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Record<string, { name: string }>;
    expect(Object.keys(data)).toHaveLength(MAINNET_BULK + TESTNET_BULK);
    expect(data[bulkOwner(0x5000, 3)]).toEqual({ name: 't3.snow', owner: bulkOwner(0x5000, 3) });
    const calls = upstream.requests();
    expect(calls.map((c) => c.path)).toEqual(Array(3).fill('/api/public/identity/names'));
    expect(new Set(calls.map((c) => (c.body as { caip2Id: string }).caip2Id))).toEqual(
      new Set(['move-mvmt:126', 'move-mvmt:177', 'move-mvmt:250']),
    );

    upstream.resetCounts();
    const names = Array.from({ length: 1000 }, (_, i) => `m${i}`);
    const forward = await post('/api/public/identity/addresses', { caip2Id: 'move-mvmt:126', names });
    expect(forward.json().data.filter((d: { owner: string | null }) => d.owner)).toHaveLength(MAINNET_BULK);
    expect(upstream.requests().map((c) => c.path)).toEqual(['/api/public/public-identity/addresses']);
  });

  it('finds upstream names in identity search, MNS first', async () => {
    const { apiKey } = await app.partner(10);
    for (const query of ['carol', 'carol.snow']) {
      const res = await app.http.inject({
        method: 'GET',
        url: '/partners/cip/identity/search',
        query: { query },
        headers: { 'x-api-key': apiKey },
      });
      expect(res.statusCode, query).toBe(200);
      expect(res.json().results[0]).toMatchObject({
        name: 'carol.snow',
        ownerAddress: CAROL,
        caip2Id: 'move-mvmt:126',
      });
    }
  });
});

describe('public interface when the upstream MNS API fails', () => {
  it('answers a fast 503, not a 404 or a hang, and opens the circuit', async () => {
    const upstream = await startMnsUpstream([]);
    upstream.reply('/api/public/public-identity/addresses', { status: 502, body: 'bad gateway' });
    const app = await startTestApp({ MNS_UPSTREAM_URL: upstream.publicUrl, PROVIDER_TIMEOUT_MS: '500' });
    try {
      const res = await app.http.inject({
        method: 'GET',
        url: '/api/public/identity/address',
        query: { name: 'carol', caip2Id: 'move-mvmt:126' },
      });
      expect(res.statusCode).toBe(503);
      expect(Object.keys(res.json())).toEqual(['message']);
      // Five failed calls open the circuit; then lookups fail fast without asking the upstream.
      for (let i = 0; i < 4; i++) {
        const again = await app.http.inject({
          method: 'GET',
          url: '/api/public/identity/address',
          query: { name: `x${i}`, caip2Id: 'move-mvmt:126' },
        });
        expect(again.statusCode).toBe(503);
      }
      const asked = upstream.count('/api/public/public-identity/addresses');
      const open = await app.http.inject({
        method: 'GET',
        url: '/api/public/identity/address?name=y&caip2Id=move-mvmt:126',
      });
      expect(open.statusCode).toBe(503);
      expect(upstream.count('/api/public/public-identity/addresses')).toBe(asked);
    } finally {
      await app.stop();
      await upstream.close();
    }
  });
});
