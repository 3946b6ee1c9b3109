import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FarcasterStandins, startFarcasterStandins } from '../../../../../test/support/farcaster-standin.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { createFarcasterProvider } from './provider.js';

// Fixtures: test/fixtures/farcaster/hub-fixtures.ts, after the Hubble HTTP API docs (hub-monorepo
// apps/hubble/www/docs/docs/httpapi) and the fname registry's `/transfers/current`.

const ADITYAPK = getAddress('0x3a2eee51a10289f0e6fa56ab9beaf3977a9085c3');

let up: FarcasterStandins;
beforeAll(async () => {
  up = await startFarcasterStandins();
});
afterAll(() => up?.close());
afterEach(() => {
  up.hub.resetCounts();
  up.fnames.resetCounts();
});

const provider = (timeoutMs = 2_000, hubApiKey?: string) =>
  createFarcasterProvider({
    hubUrl: up.hub.url,
    fnameUrl: up.fnames.url,
    hubApiKey,
    timeoutMs,
    http: { breaker: false, backoff: { baseMs: 5, maxMs: 10 } },
  });

describe('createFarcasterProvider', () => {
  it('describes Farcaster: fnames are bare labels, `.fcast.id` and `farcaster/` name them explicitly', () => {
    expect(provider().info).toMatchObject({
      provider: 'farcaster',
      source: 'farcaster',
      providerName: 'Farcaster',
      caip2Id: 'eip155:10',
      suffixes: ['.fcast.id'],
      prefixes: ['farcaster/'],
      bareLabel: 'label',
    });
    expect(provider().status).toEqual({ enabled: true });
  });

  it('normalizes usernames and rejects what Farcaster cannot hold', () => {
    const fc = provider();
    expect(fc.normalize('AdityaPK')).toBe('adityapk');
    expect(fc.normalize('adityapk.fcast.id')).toBe('adityapk');
    expect(fc.normalize('farcaster/Varunsrin.eth')).toBe('varunsrin.eth');
    expect(fc.normalize('farcaster/jesse.base.eth')).toBe('jesse.base.eth');
    for (const bad of ['-dash', 'a_b', 'seventeen-letters', 'x.sol', 'a.b.eth', '']) {
      expect(() => fc.normalize(bad), bad).toThrow();
    }
  });

  it('reads an fname: owner from the fname registry, profile, custody and verifications from the hub', async () => {
    const record = await provider().records('adityapk');
    expect(record).toEqual({
      name: 'adityapk',
      ownerAddress: ADITYAPK,
      caip2Id: 'eip155:10',
      avatar: 'https://i.imgur.com/HG54Hq6.png',
      expireAt: null,
      registeredAt: new Date(1670603245 * 1000),
      multichainAddresses: [{ address: ADITYAPK, caip2Id: 'eip155:10' }],
      txtRecords: [
        { key: 'fid', value: '6833', type: 'text' },
        { key: 'name', value: 'Aditya Kulkarni', type: 'text' },
        { key: 'description', value: 'Building hubs', type: 'text' },
        { key: 'url', value: 'https://example.com/adityapk', type: 'url' },
        { key: 'com.twitter', value: 'adityapk00', type: 'social' },
      ],
    });
    expect(up.fnames.requests('/transfers/current')[0]?.query).toEqual({ name: 'adityapk' });
    expect(up.hub.count('/v1/userNameProofByName')).toBe(0);
  });

  it('reads an ENS username through the hub proof, with verified Ethereum and Solana addresses', async () => {
    const record = await provider().records('farcaster/varunsrin.eth');
    expect(record).toMatchObject({
      name: 'varunsrin.eth',
      ownerAddress: '0x4114E33eb831858649ea3702E1C9a2db3f626446',
      registeredAt: new Date(1690329118 * 1000),
      avatar: null,
      multichainAddresses: [
        { address: '0x4114E33eb831858649ea3702E1C9a2db3f626446', caip2Id: 'eip155:10' },
        { address: '0x91031DCFdEa024b4d51e775486111d2b2A715871', caip2Id: 'eip155:1' },
        { address: '11111111111111111111111111111112', caip2Id: 'solana:mainnet-beta' },
      ],
      txtRecords: [
        { key: 'fid', value: '2', type: 'text' },
        { key: 'name', value: 'Varun Srinivasan', type: 'text' },
        { key: 'com.github', value: 'varunsrin', type: 'social' },
      ],
    });
    expect(up.hub.requests('/v1/userNameProofByName')[0]?.query).toEqual({ name: 'varunsrin.eth' });
    expect(up.fnames.count('/transfers/current')).toBe(0);
  });

  it('resolves to the custody address', async () => {
    expect(await provider().resolve('v')).toBe('0x4114E33eb831858649ea3702E1C9a2db3f626446');
  });

  it('answers null for unknown names (registry 404, hub not_found) and invalid ones without asking', async () => {
    expect(await provider().records('nobody')).toBeNull();
    expect(await provider().records('farcaster/nobody.eth')).toBeNull();
    expect(up.fnames.count('/transfers/current') + up.hub.count('/v1/userNameProofByName')).toBe(2);
    expect(await provider().records('not_valid')).toBeNull();
    expect(up.fnames.count('/transfers/current') + up.hub.count('/v1/userNameProofByName')).toBe(2);
  });

  describe('reverse', () => {
    it("answers the username a custody address's account shows, checked against its owner", async () => {
      expect(await provider().reverse('0x74232bf61e994655592747e20bdf6fa9b9476f79')).toBe('dwr');
      expect(await provider().reverse('0x4114E33eb831858649ea3702E1C9a2db3f626446')).toBe('varunsrin.eth');
    });

    it('answers null for an address with no account, and for non-EVM addresses without asking', async () => {
      expect(await provider().reverse('0x00000000000000000000000000000000000000ff')).toBeNull();
      const before = up.hub.requests().length;
      expect(await provider().reverse('11111111111111111111111111111112')).toBeNull();
      expect(up.hub.requests().length).toBe(before);
    });
  });

  it('sends the hub API key as x-api-key, and nothing to the fname registry', async () => {
    await provider(2_000, 'hub-key').records('adityapk');
    expect(up.hub.requests('/v1/userDataByFid')[0]?.headers['x-api-key']).toBe('hub-key');
    expect(up.fnames.requests('/transfers/current')[0]?.headers['x-api-key']).toBeUndefined();
  });

  describe('upstream failures', () => {
    afterEach(async () => {
      await up.close();
      up = await startFarcasterStandins();
    });

    it('turns a failing hub or fname registry into UpstreamError', async () => {
      up.hub.reply('/v1/userDataByFid', { status: 500, json: { errCode: 'unavailable' } });
      await expect(provider().records('adityapk')).rejects.toBeInstanceOf(UpstreamError);
      up.fnames.reply('/transfers/current', { status: 503 });
      await expect(provider().records('v')).rejects.toBeInstanceOf(UpstreamError);
      up.hub.reply('/v1/onChainIdRegistryEventByAddress', { body: '<html>' });
      await expect(provider().reverse('0x74232bf61e994655592747e20bdf6fa9b9476f79')).rejects.toBeInstanceOf(
        UpstreamError,
      );
    });

    it('reads a 400 as "not found" only when the hub says so', async () => {
      up.hub.reply('/v1/userNameProofByName', { status: 400, json: { errCode: 'not_found', message: 'NotFound' } });
      expect(await provider().records('farcaster/someone.eth')).toBeNull();
      up.hub.reply('/v1/userNameProofByName', { status: 400, json: { errCode: 'bad_request.validation_failure' } });
      await expect(provider().records('farcaster/someone.eth')).rejects.toBeInstanceOf(UpstreamError);
    });

    it('gives up on a hanging hub within the timeout', async () => {
      up.hub.reply('/v1/userDataByFid', { hang: true });
      const started = performance.now();
      const error = await provider(300)
        .records('adityapk')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(/within 300 ms/);
      expect(performance.now() - started).toBeLessThan(1_500);
    });
  });
});
