import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANI_ACCOUNT, STANI_OWNER } from '../../../../test/fixtures/lens/accounts.js';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type FarcasterStandins, startFarcasterStandins } from '../../../../test/support/farcaster-standin.js';
import { type LensStandin, startLensStandin } from '../../../../test/support/lens-standin.js';
import { importNames } from '../../resolution/index.js';

/**
 * Farcaster and Lens in the identity search end to end: REST → gateway → identity subgraph → the real
 * providers, aimed at loopback stand-ins of a Farcaster hub, the fname registry and the Lens API that
 * answer from the fixtures of test/fixtures/farcaster and test/fixtures/lens (sources named there).
 */

let farcaster: FarcasterStandins;
let lens: LensStandin;
let app: TestApp;

beforeAll(async () => {
  [farcaster, lens] = await Promise.all([startFarcasterStandins(), startLensStandin()]);
  app = await startTestApp({
    FARCASTER_HUB_URL: farcaster.hub.url,
    FARCASTER_HUB_API_KEY: 'hub-key',
    FARCASTER_FNAME_URL: farcaster.fnames.url,
    LENS_API_URL: lens.graphqlUrl,
    PROVIDER_TIMEOUT_MS: '1500',
  });
  const summary = await importNames(app.services.db, [
    JSON.stringify({ name: 'stani.snow', caip2Id: 'move-mvmt:126', owner: '0x5a' }),
  ]);
  expect(summary.errors).toEqual([]);
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([farcaster?.close(), lens?.close()]);
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
const names = (body: { results: { name: string; provider: string }[] }) =>
  body.results.map((r) => `${r.provider}:${r.name}`);

describe('identity search with Farcaster and Lens', () => {
  it('answers an fname as a bare label with custody, verified addresses and profile, for 1 credit', async () => {
    const { apiKey } = await app.partner(10);
    const res = await search(apiKey, 'adityapk');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(names(body)).toEqual(['farcaster:adityapk']);
    const custody = getAddress('0x3a2eee51a10289f0e6fa56ab9beaf3977a9085c3');
    expect(body.results[0]).toEqual({
      name: 'adityapk',
      ownerAddress: custody,
      source: 'farcaster',
      provider: 'farcaster',
      providerName: 'Farcaster',
      caip2Id: 'eip155:10',
      avatar: 'https://i.imgur.com/HG54Hq6.png',
      logoURI: expect.stringMatching(/^https:\/\/raw\.githubusercontent\.com\/farcasterxyz\//),
      url: 'https://farcaster.xyz/',
      expireAt: null,
      registeredAt: '2022-12-09T16:27:25.000Z',
      multichainAddresses: [{ address: custody, caip2Id: 'eip155:10', chainName: 'Optimism', symbol: 'ETH' }],
      txtRecords: [
        { key: 'fid', value: '6833', type: 'text' },
        { key: 'name', value: 'Aditya Kulkarni', type: 'text' },
        { key: 'description', value: 'Building hubs', type: 'text' },
        { key: 'url', value: 'https://example.com/adityapk', type: 'url' },
        { key: 'com.twitter', value: 'adityapk00', type: 'social' },
      ],
    });
    expect(farcaster.hub.requests('/v1/userDataByFid').at(-1)?.headers['x-api-key']).toBe('hub-key');
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 9, creditUsage: 1 }));
  });

  it('puts MNS first, then the Lens username of a bare label', async () => {
    const { apiKey } = await app.partner(10);
    const body = (await search(apiKey, 'stani')).json();
    expect(names(body)).toEqual(['mns:stani.snow', 'lens:stani.lens']);
    expect(body.results[1]).toMatchObject({
      ownerAddress: getAddress(STANI_ACCOUNT),
      caip2Id: 'eip155:232',
      avatar: 'https://static.example/stani.png',
      multichainAddresses: [
        { address: getAddress(STANI_ACCOUNT), caip2Id: 'eip155:232', chainName: null, symbol: null },
        { address: getAddress(STANI_OWNER), caip2Id: 'eip155:232', chainName: null, symbol: null },
      ],
    });
  });

  it('routes explicit names to their service: lens/…, ….lens, farcaster/….eth, ….fcast.id', async () => {
    const { apiKey } = await app.partner(10);
    for (const [query, hit] of [
      ['lens/stani', 'lens:stani.lens'],
      ['Stani.lens', 'lens:stani.lens'],
      ['farcaster/varunsrin.eth', 'farcaster:varunsrin.eth'],
      ['v.fcast.id', 'farcaster:v'],
    ] as const) {
      const res = await search(apiKey, query);
      expect(res.statusCode, query).toBe(200);
      expect(names(res.json()), query).toEqual([hit]);
    }
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 6, creditUsage: 4 }));
  });

  it('finds the name of an address: a Farcaster custody address, a Lens owner', async () => {
    const { apiKey } = await app.partner(10);
    expect(names((await search(apiKey, '0x74232bf61e994655592747e20bdf6fa9b9476f79')).json())).toEqual([
      'farcaster:dwr',
    ]);
    expect(names((await search(apiKey, STANI_OWNER)).json())).toEqual(['lens:stani.lens']);
  });

  it('answers an unknown username with no result, and an invalid one with a free 400', async () => {
    const { apiKey } = await app.partner(10);
    const unknown = await search(apiKey, 'lens/nobody');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().results).toEqual([]);
    for (const bad of ['lens/_bad', 'farcaster/a_b', 'x.fcast.id.fcast.id']) {
      const res = await search(apiKey, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toMatch(/is not a valid (Lens|Farcaster) name/);
    }
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 9, creditUsage: 1 }));
  });
});
