import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { type EndlessUpstream, startEndlessUpstream } from '../../../test/support/endless-upstream.js';
import { postGraphql } from '../../../test/support/graphql.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { importNames } from '../resolution/index.js';

/**
 * Identity search against upstreams that misbehave in ways a timeout alone does not catch, end to end
 * (REST and GraphQL → gateway → identity subgraph → real ENS/Basenames/SNS/Unstoppable Domains/SPACE ID/
 * Farcaster/Lens providers), and against providers this server runs without.
 */

const ALICE = { name: 'alice.snow', caip2Id: 'move-mvmt:126', owner: '0xa11ce' };
/** Every path a Farcaster lookup asks of a hub or the fname registry. */
const FARCASTER_PATHS = [
  '/transfers/current',
  '/v1/userNameProofByName',
  '/v1/userDataByFid',
  '/v1/verificationsByFid',
  '/v1/onChainEventsByFid',
  '/v1/onChainIdRegistryEventByAddress',
];
const TIMEOUT_MS = 1000;
/** Room for the request's own work on a loaded machine; small next to the deadline under test. */
const SLACK_MS = 400;

const get = (app: TestApp, apiKey: string, query: string) =>
  app.http.inject({
    method: 'GET',
    url: '/partners/cip/identity/search',
    query: { query },
    headers: { 'x-api-key': apiKey },
  });
const gql = (app: TestApp, apiKey: string, query: string) =>
  postGraphql(
    app,
    {
      query: 'query($q: String!) { identitySearch(query: $q) { results { name } unavailableProviders } }',
      variables: { q: query },
    },
    apiKey,
  );
const credits = async (app: TestApp, apiKey: string) =>
  (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json() as {
    creditBalance: number;
    creditUsage: number;
  };
const timed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await run();
  return [value, performance.now() - started];
};

describe('names of providers this server runs without', () => {
  let app: TestApp;
  beforeAll(async () => {
    // No RPC URL of any other naming service: only the local registry is enabled.
    app = await startTestApp({});
    expect((await importNames(app.services.db, [JSON.stringify(ALICE)])).errors).toEqual([]);
  });
  afterAll(() => app?.stop());

  const cases = [
    ['alice.eth', 'ENS (.eth) is not enabled on this server'],
    ['alice.base.eth', 'Basenames (.base.eth) is not enabled on this server'],
    ['ALICE.SOL', 'Solana Name Service (.sol) is not enabled on this server'],
    ['brad.crypto', 'Unstoppable Domains (.crypto) is not enabled on this server'],
    ['alice.bnb', 'SPACE ID (.bnb) is not enabled on this server'],
    ['alice.arb', 'SPACE ID (.arb) is not enabled on this server'],
    ['brad.x', 'Unstoppable Domains (.x) is not enabled on this server'],
    ['alice.fcast.id', 'Farcaster (.fcast.id) is not enabled on this server'],
    ['farcaster/vitalik.eth', 'Farcaster (.fcast.id) is not enabled on this server'],
    ['lens/stani', 'Lens (.lens) is not enabled on this server'],
    ['alice.apt', 'Aptos Names (.apt) is not enabled on this server'],
    ['alice.sui', 'SuiNS (.sui) is not enabled on this server'],
  ] as const;

  it('are a free 400 on REST that says the provider is not enabled here', async () => {
    const { apiKey } = await app.partner(5);
    for (const [query, message] of cases) {
      const res = await get(app, apiKey, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    }
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('are BAD_USER_INPUT on GraphQL, free', async () => {
    const { apiKey } = await app.partner(5);
    for (const [query, message] of cases) {
      const res = await gql(app, apiKey, query);
      expect(res.statusCode, query).toBeLessThan(500);
      const body = res.json();
      expect(body.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
      expect(body.data?.identitySearch ?? null).toBeNull();
    }
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('leave bare labels and names of enabled providers alone', async () => {
    const { apiKey } = await app.partner(5);
    const res = await get(app, apiKey, 'alice');
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { name: string }) => r.name)).toEqual(['alice.snow']);
    expect((await get(app, apiKey, 'alice.snow')).statusCode).toBe(200);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 3, creditUsage: 2 }));
  });
});

describe('upstreams that never answer or never stop answering', () => {
  let app: TestApp;
  let silent: Standin;
  let endlessBase: EndlessUpstream;
  let endlessSolana: EndlessUpstream;
  let silentPolygon: Standin;
  let failingBsc: Standin;
  let endlessArbitrum: EndlessUpstream;
  let endlessLens: EndlessUpstream;
  /** An Aptos fullnode and a Sui GraphQL endpoint that accept the request and never answer. */
  let silentMove: Standin;

  beforeAll(async () => {
    [silent, endlessBase, endlessSolana, silentPolygon, failingBsc, endlessArbitrum, endlessLens, silentMove] =
      await Promise.all([
        startStandin(),
        startEndlessUpstream(),
        startEndlessUpstream(),
        startStandin(),
        startStandin(),
        startEndlessUpstream(),
        startEndlessUpstream(),
        startStandin(),
      ]);
    // One silent host for ENS's JSON-RPC and every path a Farcaster lookup asks of a hub or the fname registry.
    for (const path of ['/', ...FARCASTER_PATHS]) silent.reply(path, { hang: true });
    silentPolygon.reply('/', { hang: true });
    failingBsc.reply('/', { status: 502, body: 'bad gateway' });
    silentMove.reply('/v1/view', { hang: true });
    silentMove.reply('/graphql', { hang: true });
    app = await startTestApp({
      ENS_RPC_URL: silent.url,
      BASE_RPC_URL: endlessBase.url,
      SOLANA_RPC_URL: endlessSolana.url,
      UNS_POLYGON_RPC_URL: silentPolygon.url,
      SPACEID_BSC_RPC_URL: failingBsc.url,
      SPACEID_ARB_RPC_URL: endlessArbitrum.url,
      APTOS_RPC_URL: `${silentMove.url}/v1`,
      SUI_GRAPHQL_URL: `${silentMove.url}/graphql`,
      FARCASTER_HUB_URL: silent.url,
      FARCASTER_FNAME_URL: silent.url,
      LENS_API_URL: `${endlessLens.url}/graphql`,
      PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
      UPSTREAM_MAX_BODY_BYTES: String(64 * 1024),
    });
    expect((await importNames(app.services.db, [JSON.stringify(ALICE)])).errors).toEqual([]);
    // Warm the gateway's query plans with a search no upstream takes part in, so timings below measure
    // the deadline rather than a cold start.
    const { apiKey } = await app.partner(2);
    expect((await get(app, apiKey, 'alice.snow')).statusCode).toBe(200);
    expect((await gql(app, apiKey, 'alice.snow')).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([
      silent?.close(),
      endlessBase?.close(),
      endlessSolana?.close(),
      silentPolygon?.close(),
      failingBsc?.close(),
      endlessArbitrum?.close(),
      endlessLens?.close(),
      silentMove?.close(),
    ]);
  });

  it('answers a bare label from the providers that work, within 1.5 × PROVIDER_TIMEOUT_MS, charged once', async () => {
    const { apiKey } = await app.partner(5);
    const [res, elapsed] = await timed(() => get(app, apiKey, 'alice'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { name: string }) => r.name)).toEqual(['alice.snow']);
    expect(elapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    expect(silent.count('/')).toBeGreaterThan(0);
    expect(silentMove.count('/v1/view')).toBeGreaterThan(0);
    expect(silentMove.count('/graphql')).toBeGreaterThan(0);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));

    const [viaGraphql, gqlElapsed] = await timed(() => gql(app, apiKey, 'alice'));
    expect(gqlElapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    expect(viaGraphql.json().data.identitySearch.unavailableProviders.sort()).toEqual([
      'aptos-names',
      'basenames',
      'ens',
      'farcaster',
      'lens',
      'sns',
      'spaceid',
      'suins',
      'unstoppable',
    ]);
    expect(silent.count('/transfers/current')).toBeGreaterThan(0);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 3, creditUsage: 2 }));
  });

  it('answers an address from the providers that work, the others listed, within the deadline, charged once', async () => {
    const { apiKey } = await app.partner(5);
    const [res, elapsed] = await timed(() => gql(app, apiKey, '0x74232bf61e994655592747e20bdf6fa9b9476f79'));
    expect(elapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    expect(res.json().data.identitySearch).toEqual({
      results: [],
      unavailableProviders: expect.arrayContaining(['ens', 'farcaster', 'lens']),
    });
    expect(silent.count('/v1/onChainIdRegistryEventByAddress')).toBeGreaterThan(0);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('answers an address search without the hanging Aptos and Sui upstreams, within the deadline, charged once', async () => {
    const { apiKey } = await app.partner(5);
    const [res, elapsed] = await timed(() =>
      gql(app, apiKey, '0x00000000000000000000000000000000000000000000000000000000000a11ce'),
    );
    expect(res.statusCode, res.body).toBe(200);
    // The other providers answered (no primary name there); the two that hang are named.
    expect(res.json().data.identitySearch).toEqual({ results: [], unavailableProviders: ['aptos-names', 'suins'] });
    expect(elapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('answers a free 503 for a .apt or .sui name whose upstream never answers, within 1.5 × PROVIDER_TIMEOUT_MS', async () => {
    const { apiKey } = await app.partner(5);
    for (const [query, provider] of [
      ['alice.apt', 'Aptos Names'],
      ['alice.sui', 'SuiNS'],
    ] as const) {
      const [res, elapsed] = await timed(() => get(app, apiKey, query));
      expect(res.statusCode, query).toBe(503);
      expect(res.json().message).toContain(`${provider} is unavailable`);
      // At most the deadline; sooner once the earlier hangs have opened the upstream's circuit breaker.
      expect(elapsed, query).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    }
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('answers a free 503 for a full name whose provider never answers, within 1.5 × PROVIDER_TIMEOUT_MS', async () => {
    const { apiKey } = await app.partner(5);
    for (const [query, provider] of [
      ['alice.eth', 'ENS'],
      ['alice.fcast.id', 'Farcaster'],
      ['farcaster/vitalik.eth', 'Farcaster'],
    ] as const) {
      const [res, elapsed] = await timed(() => get(app, apiKey, query));
      expect(res.statusCode, query).toBe(503);
      expect(res.json().message).toContain(`${provider} is unavailable`);
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    }
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('answers a free 503 for a .crypto name whose UNS chain never answers, within 1.5 × PROVIDER_TIMEOUT_MS', async () => {
    const { apiKey } = await app.partner(5);
    const [res, elapsed] = await timed(() => get(app, apiKey, 'brad.crypto'));
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/Unstoppable Domains is unavailable/);
    expect(elapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    expect(silentPolygon.count('/')).toBeGreaterThan(0);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });

  it('answers a fast free 503 for a .bnb name whose RPC node fails', async () => {
    const { apiKey } = await app.partner(5);
    const [res, elapsed] = await timed(() => get(app, apiKey, 'alice.bnb'));
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/SPACE ID is unavailable/);
    expect(elapsed).toBeLessThan(TIMEOUT_MS);
    expect(failingBsc.count('/')).toBeGreaterThan(0);
    // An address lookup asks every provider: the failing ones are left out, the answer still comes.
    const [byAddress, addressElapsed] = await timed(() =>
      get(app, apiKey, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'),
    );
    expect(byAddress.statusCode, byAddress.body).toBe(200);
    expect(addressElapsed).toBeLessThan(1.5 * TIMEOUT_MS + SLACK_MS);
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('cuts endless JSON-RPC and GraphQL answers (viem, web3.js, the HTTP client) at UPSTREAM_MAX_BODY_BYTES: a fast free 503, socket dropped', async () => {
    const { apiKey } = await app.partner(5);
    for (const [query, upstream, provider] of [
      ['alice.base.eth', endlessBase, 'Basenames'],
      ['alice.sol', endlessSolana, 'Solana Name Service'],
      ['alice.arb', endlessArbitrum, 'SPACE ID'],
      ['stani.lens', endlessLens, 'Lens'],
    ] as const) {
      const before = upstream.requests;
      const [res, elapsed] = await timed(() => get(app, apiKey, query));
      expect(res.statusCode, query).toBe(503);
      expect(res.json().message).toContain(`${provider} is unavailable`);
      // Well before the deadline: the limit, not the timeout, ended the call.
      expect(elapsed, query).toBeLessThan(TIMEOUT_MS);
      expect(upstream.requests).toBeGreaterThan(before);
      // Every connection the providers opened was dropped, so nothing keeps buffering.
      await upstream.closed(upstream.requests);
      const sent = upstream.bytesSent;
      await new Promise((r) => setTimeout(r, 100));
      expect(upstream.bytesSent).toBe(sent);
    }
    expect(await credits(app, apiKey)).toEqual(expect.objectContaining({ creditBalance: 5, creditUsage: 0 }));
  });
});

describe('UPSTREAM_MAX_BODY_BYTES', () => {
  it('defaults to 5 MiB and refuses a value that is not a whole number of bytes from 1024', () => {
    expect(loadConfig({}).upstreamMaxBodyBytes).toBe(5 * 1024 * 1024);
    expect(loadConfig({ UPSTREAM_MAX_BODY_BYTES: '65536' }).upstreamMaxBodyBytes).toBe(65_536);
    for (const bad of ['10', '1.5', 'lots']) {
      expect(() => loadConfig({ UPSTREAM_MAX_BODY_BYTES: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ UPSTREAM_MAX_BODY_BYTES: bad })).toThrow(/UPSTREAM_MAX_BODY_BYTES/);
    }
  });
});
