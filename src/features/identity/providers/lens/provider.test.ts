import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AOIFE_OWNER, MANAGER, STANI_ACCOUNT, STANI_OWNER } from '../../../../../test/fixtures/lens/accounts.js';
import { type LensStandin, startLensStandin } from '../../../../../test/support/lens-standin.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { createLensProvider } from './provider.js';

// The stand-in executes queries against the documented part of the Lens v3 schema, over the accounts of
// test/fixtures/lens/accounts.ts (sources named there).

let api: LensStandin;
beforeAll(async () => {
  api = await startLensStandin();
});
afterAll(() => api?.close());
afterEach(async () => {
  api.resetCounts();
});

const provider = (timeoutMs = 2_000, apiKey?: string) =>
  createLensProvider({
    apiUrl: api.graphqlUrl,
    apiKey,
    timeoutMs,
    http: { breaker: false, backoff: { baseMs: 5, maxMs: 10 } },
  });

describe('createLensProvider', () => {
  it('describes Lens: `.lens` names and the `lens/` namespace on Lens Chain', () => {
    expect(provider().info).toMatchObject({
      provider: 'lens',
      source: 'lens',
      providerName: 'Lens',
      caip2Id: 'eip155:232',
      suffixes: ['.lens'],
      prefixes: ['lens/'],
    });
    expect(provider().status).toEqual({ enabled: true });
  });

  it('normalizes both spellings to `name.lens` and rejects what the global namespace cannot hold', () => {
    expect(provider().normalize('Stani.LENS')).toBe('stani.lens');
    expect(provider().normalize('lens/stani')).toBe('stani.lens');
    for (const bad of ['stani', '_stani.lens', 'lens/a.b', `${'a'.repeat(27)}.lens`, 'stani.eth']) {
      expect(() => provider().normalize(bad), bad).toThrow();
    }
  });

  it('reads an account: the Lens Account, its owner, metadata as avatar and text records', async () => {
    expect(await provider().records('stani.lens')).toEqual({
      name: 'stani.lens',
      ownerAddress: getAddress(STANI_ACCOUNT),
      caip2Id: 'eip155:232',
      avatar: 'https://static.example/stani.png',
      expireAt: null,
      registeredAt: new Date('2025-04-02T08:30:00.000Z'),
      multichainAddresses: [
        { address: getAddress(STANI_ACCOUNT), caip2Id: 'eip155:232' },
        { address: getAddress(STANI_OWNER), caip2Id: 'eip155:232' },
      ],
      txtRecords: [
        { key: 'name', value: 'Stani', type: 'text' },
        { key: 'description', value: 'Building Lens', type: 'text' },
      ],
    });
    const [request] = api.requests('/graphql');
    expect(request?.body).toMatchObject({ variables: { request: { username: { localName: 'stani' } } } });
  });

  it('keeps a lens:// picture as the avatar and resolves to the account', async () => {
    const record = await provider().records('lens/aoifeodwyer');
    expect(record?.avatar).toBe('lens://4f91cab87ab5e4f5066f878b72');
    expect(await provider().resolve('aoifeodwyer.lens')).toBe('0x1111111111111111111111111111111111111111');
  });

  it('answers null for an unknown username, and for an invalid one without asking', async () => {
    expect(await provider().records('nobody.lens')).toBeNull();
    expect(api.count('/graphql')).toBe(1);
    expect(await provider().records('no.dots.lens')).toBeNull();
    expect(api.count('/graphql')).toBe(1);
  });

  describe('reverse', () => {
    it("answers a Lens Account's username and the username of an account an address owns", async () => {
      expect(await provider().reverse(STANI_ACCOUNT)).toBe('stani.lens');
      expect(await provider().reverse(STANI_OWNER.toLowerCase())).toBe('stani.lens');
    });

    it('skips owned accounts without a username, and does not give a manager the accounts it manages', async () => {
      expect(await provider().reverse(AOIFE_OWNER)).toBe('aoifeodwyer.lens');
      expect(await provider().reverse(MANAGER)).toBeNull();
    });

    it('answers null for a non-EVM address without asking', async () => {
      expect(await provider().reverse('11111111111111111111111111111112')).toBeNull();
      expect(api.count('/graphql')).toBe(0);
    });
  });

  it('sends the API key as x-lens-app', async () => {
    await provider(2_000, 'app-key').records('stani.lens');
    expect(api.requests('/graphql')[0]?.headers['x-lens-app']).toBe('app-key');
  });

  describe('upstream failures', () => {
    afterEach(async () => {
      await api.close();
      api = await startLensStandin();
    });

    it('turns an HTTP error, a GraphQL error and a non-JSON answer into UpstreamError', async () => {
      for (const reply of [{ status: 502 }, { json: { errors: [{ message: 'rate limited' }] } }, { body: '<html>' }]) {
        api.reply('/graphql', reply);
        await expect(provider().records('stani.lens')).rejects.toBeInstanceOf(UpstreamError);
        await expect(provider().reverse(STANI_OWNER)).rejects.toBeInstanceOf(UpstreamError);
      }
    });

    it('gives up on a hanging API within the timeout', async () => {
      api.reply('/graphql', { hang: true });
      const started = performance.now();
      const error = await provider(300)
        .records('stani.lens')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(/within 300 ms/);
      expect(performance.now() - started).toBeLessThan(1_500);
    });
  });
});
