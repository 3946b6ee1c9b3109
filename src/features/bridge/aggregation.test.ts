/**
 * Quotes and catalogue aggregated over LI.FI and Across, and for the fault tests Mayan and Squid too
 * (local stand-ins replaying their documented answers, test/fixtures/<provider>), through the real HTTP
 * surface; the sandbox serves sandbox partners only.
 */
import { readFileSync } from 'node:fs';
import { VersionedTransaction } from '@solana/web3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/support/app.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { type SolanaRpcStandin, startSolanaRpcStandin } from '../../../test/support/solana-rpc-standin.js';
import { usdcQuery as usdcQueryFor } from './bridge.test-helper.js';
import { FIXTURE_WALLET, USDC_ARB } from './providers/provider.test-helper.js';

const fixture = (dir: 'lifi' | 'across' | 'relay' | 'debridge' | 'mayan' | 'squid', name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/${dir}/${name}`, import.meta.url), 'utf8'));

const WALLET = FIXTURE_WALLET;
const SOLANA_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const usdcQuery = usdcQueryFor();

/** LI.FI's route list holding one documented step, and that step's transaction on request. */
function replyLifiStep(lifi: Standin, step: unknown) {
  const { transactionRequest: _tx, ...bare } = step as Record<string, unknown>;
  lifi.reply('/v1/advanced/routes', { json: { routes: [{ id: 'r1', steps: [bare] }] } });
  lifi.reply('/v1/advanced/stepTransaction', { json: step });
}

/** Both upstreams answering their documented happy answers; tests override single paths. */
function happy(lifi: Standin, across: Standin) {
  lifi.reply('/v1/chains', { json: fixture('lifi', 'chains.json') });
  lifi.reply('/v1/tokens', { json: fixture('lifi', 'tokens-arbitrum.json') });
  replyLifiStep(lifi, fixture('lifi', 'quote-usdc-arbitrum-base.json'));
  across.reply('/api/available-routes', { json: fixture('across', 'available-routes.json') });
  across.reply('/api/swap/tokens', (req) => ({ json: fixture('across', `swap-tokens-${req.query.chainId}.json`) }));
  across.reply('/api/swap/approval', { json: fixture('across', 'swap-approval-usdc-arbitrum-base.json') });
}

/** Mayan's and Squid's documented answers for the same USDC transfer. */
function happyMore(mayan: Standin, squid: Standin) {
  mayan.reply('/price/v3/quote', { json: fixture('mayan', 'quote-usdc-arbitrum-base.json') });
  squid.reply('/v2/route', { json: fixture('squid', 'route-usdc-arbitrum-base.json') });
  squid.reply('/v2/sdk-info', { json: fixture('squid', 'sdk-info.json') });
}

/** Every live bridge upstream, and the call of each that answers a quote: where a test makes it hang or fail. */
const UPSTREAMS = ['lifi', 'across', 'mayan', 'squid'] as const;
type Upstream = (typeof UPSTREAMS)[number];
/** Four upstreams and a swap SDK in one test process: a deadline that a loaded machine still meets. */
const ALL_TIMEOUT_MS = 1500;
const ALL_TIMEOUT = { PROVIDER_TIMEOUT_MS: String(ALL_TIMEOUT_MS) };
const QUOTE_PATH: Record<Upstream, string> = {
  lifi: '/v1/advanced/routes',
  across: '/api/swap/approval',
  mayan: '/price/v3/quote',
  squid: '/v2/route',
};

/** LI.FI and Across; with `all`, Mayan and Squid as well. */
async function setup(env: Record<string, string> = {}, { all = false } = {}) {
  // Mayan's SDK takes seconds of CPU to load, blocking the process; a server loads it as it starts
  // (createMayanProvider), long before quotes arrive. Loaded here once, each test app finds it loaded.
  if (all) await import('@mayanfinance/swap-sdk');
  const lifi = await startStandin();
  const across = await startStandin();
  const mayan = await startStandin();
  const squid = await startStandin();
  happy(lifi, across);
  happyMore(mayan, squid);
  const app = await startTestApp({
    LIFI_API_URL: `${lifi.url}/v1`,
    ACROSS_API_URL: `${across.url}/api`,
    ...(all
      ? {
          MAYAN_PRICE_API_URL: `${mayan.url}/price/v3`,
          MAYAN_EXPLORER_API_URL: `${mayan.url}/explorer/v3`,
          SQUID_API_URL: squid.url,
          SQUID_INTEGRATOR_ID: 'cipgate-test',
        }
      : {}),
    PROVIDER_TIMEOUT_MS: '400',
    ...env,
  });
  const { apiKey } = await app.partner(100);
  const get = (url: string, key = apiKey) => app.http.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  const balance = async (key = apiKey) => (await get('/partners/stats', key)).json().creditBalance as number;
  const upstream: Record<Upstream, Standin> = { lifi, across, mayan, squid };
  return {
    lifi,
    across,
    upstream,
    app,
    get,
    balance,
    async stop() {
      await app.stop();
      await Promise.all(Object.values(upstream).map((u) => u.close()));
    },
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

describe('quote aggregation', () => {
  let s: Setup;
  afterEach(async () => {
    await s.stop();
  });

  it('merges the routes of LI.FI and Across best-first (CHEAPEST), each stored with its provider', async () => {
    s = await setup();
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    const { routes } = res.json();
    expect(routes.map((r: { aggregator: string }) => r.aggregator)).toEqual(['across', 'lifi']);
    const amounts = routes.map((r: { toAmount: string }) => BigInt(r.toAmount));
    expect(amounts).toEqual([...amounts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(new Set(routes.map((r: { id: string }) => r.id)).size).toBe(2);
    const lifi = routes.find((r: { aggregator: string }) => r.aggregator === 'lifi');
    expect(lifi).toMatchObject({ toAmount: '99851237', toAmountMin: '99601609', transactionData: { chainId: 42161 } });
    const across = routes.find((r: { aggregator: string }) => r.aggregator === 'across');
    expect(across).toMatchObject({ toAmount: '99880000', transactionData: { chainId: 42161, value: '0' } });
    for (const r of routes) {
      expect(BigInt(r.toAmountMin)).toBeLessThanOrEqual(BigInt(r.toAmount));
      expect(r.transactionData.from.toLowerCase()).toBe(WALLET.toLowerCase());
    }
    // Every provider was asked once, with the caller's parameters.
    expect(s.lifi.requests('/v1/advanced/routes')[0]?.body).toMatchObject({
      fromChainId: 42161,
      toChainId: 8453,
      options: { slippage: 0.005 },
    });
    expect(s.across.count('/api/swap/approval')).toBe(1);
    const stored = await s.app.services.db.query<{ id: string; provider: string; tracking: string | null }>(
      'select id, provider, tracking from bridge_route',
    );
    expect(stored.map((r) => [r.id, r.provider]).sort()).toEqual(
      routes.map((r: { id: string; aggregator: string }) => [r.id, r.aggregator]).sort(),
    );
    const lifiTracking = stored.find((r) => r.provider === 'lifi')?.tracking;
    expect(JSON.parse(lifiTracking ?? '{}')).toMatchObject({ tool: 'across', fromChainId: 42161 });
    expect(await s.balance()).toBe(98);
  });

  it('answers with the others when one upstream hangs past the per-provider timeout', async () => {
    s = await setup();
    s.lifi.reply('/v1/advanced/routes', { hang: true });
    const started = Date.now();
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(
      res
        .json()
        .routes.map((r: { aggregator: string }) => r.aggregator)
        .sort(),
    ).toEqual(['across']);
    expect(await s.balance()).toBe(98);
  });

  it('answers with the others when one upstream fails with 5xx', async () => {
    s = await setup();
    s.across.reply('/api/swap/approval', { status: 503, json: { message: 'maintenance' } });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .routes.map((r: { aggregator: string }) => r.aggregator)
        .sort(),
    ).toEqual(['lifi']);
    // One retry of the transient failure, then given up.
    expect(s.across.count('/api/swap/approval')).toBe(2);
  });

  it('all upstreams failing is a free 503', async () => {
    s = await setup();
    s.lifi.reply('/v1/advanced/routes', { hang: true });
    s.across.reply('/api/swap/approval', { status: 502, body: 'bad gateway' });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: expect.stringMatching(/unavailable/),
    });
    expect(await s.balance()).toBe(100);
  });

  it('with every bridge upstream enabled, routes come from each, best first, stored with their provider', async () => {
    s = await setup(ALL_TIMEOUT, { all: true });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    const routes = res.json().routes as { aggregator: string; toAmount: string; id: string }[];
    expect(new Set(routes.map((r) => r.aggregator))).toEqual(new Set(UPSTREAMS));
    // CHEAPEST with USD figures missing on some routes: the amounts received decide.
    const amounts = routes.map((r) => BigInt(r.toAmount));
    expect(amounts).toEqual([...amounts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(routes.map((r) => [r.aggregator, r.toAmount])).toEqual([
      ['across', '99880000'],
      ['mayan', '99877000'],
      ['lifi', '99851237'],
      ['squid', '99812000'],
      ['mayan', '99600000'],
    ]);
    const fastest = (await s.get(`/partners/bridge/quote?${usdcQueryFor({ order: 'FASTEST' })}`)).json().routes as {
      estimatedTimeSeconds: number;
    }[];
    const times = fastest.map((r) => r.estimatedTimeSeconds);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await s.balance()).toBe(96);
  });

  it("status of a transfer quoted through Mayan or Squid asks that provider with the quote's tracking", async () => {
    s = await setup(ALL_TIMEOUT, { all: true });
    const routes = (await s.get(`/partners/bridge/quote?${usdcQuery}`)).json().routes as {
      id: string;
      aggregator: string;
    }[];
    const status = (hash: string, aggregator: string) => {
      const route = routes.find((r) => r.aggregator === aggregator);
      return s.get(`/partners/bridge/status?txHash=${hash}&routeId=${route?.id}`);
    };
    // Squid has not indexed the hash yet: PENDING, because cipgate quoted it; quoteId went along.
    s.upstream.squid.reply('/v2/status', { status: 404, json: { message: 'Not found' } });
    const squidHash = `0x${'5a'.repeat(32)}`;
    const pending = await status(squidHash, 'squid');
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json()).toMatchObject({ status: 'PENDING', aggregator: 'squid' });
    expect(s.upstream.squid.requests('/v2/status')[0]?.query).toEqual({
      transactionId: squidHash,
      fromChainId: '42161',
      toChainId: '8453',
      quoteId: '6f1d8a40c3e24f0a9d3f2a5b7c8e9012',
      requestId: '2f7c9e1a-5d4b-4c3a-8e2f-1b0a9c8d7e6f',
    });
    // Mayan's explorer reports the order refunded: FAILED with substatus REFUNDED.
    const mayanHash = `0x${'4d'.repeat(32)}`;
    s.upstream.mayan.reply(`/explorer/v3/swap/trx/${mayanHash}`, {
      json: {
        ...(fixture('mayan', 'swap-completed.json') as object),
        clientStatus: 'REFUNDED',
        status: 'ORDER_REFUNDED',
      },
    });
    const refunded = await status(mayanHash, 'mayan');
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'FAILED', substatus: 'REFUNDED', aggregator: 'mayan' });
    // Delivered as quoted: DONE at 100 %, Mayan's own state named in the message.
    const settledHash = `0x${'3c'.repeat(32)}`;
    s.upstream.mayan.reply(`/explorer/v3/swap/trx/${settledHash}`, { json: fixture('mayan', 'swap-completed.json') });
    const done = await status(settledHash, 'mayan');
    expect(done.json()).toMatchObject({
      status: 'DONE',
      substatus: 'COMPLETED',
      substatusMessage: 'Mayan reports ORDER_SETTLED',
      progress: 100,
    });
  });

  it.each(UPSTREAMS)('%s hanging past the deadline: the others answer within it, charged once', async (name) => {
    s = await setup(ALL_TIMEOUT, { all: true });
    s.upstream[name].reply(QUOTE_PATH[name], { hang: true });
    const started = Date.now();
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(ALL_TIMEOUT_MS * 1.5);
    const answered = new Set(res.json().routes.map((r: { aggregator: string }) => r.aggregator));
    expect(answered).toEqual(new Set(UPSTREAMS.filter((u) => u !== name)));
    expect(await s.balance()).toBe(98);
  });

  it.each(UPSTREAMS)('%s failing with 5xx: the others answer, charged once', async (name) => {
    s = await setup(ALL_TIMEOUT, { all: true });
    s.upstream[name].reply(QUOTE_PATH[name], { status: 503, json: { message: 'maintenance' } });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    const answered = new Set(res.json().routes.map((r: { aggregator: string }) => r.aggregator));
    expect(answered).toEqual(new Set(UPSTREAMS.filter((u) => u !== name)));
    // One retry of the transient failure, then given up.
    expect(s.upstream[name].count(QUOTE_PATH[name])).toBe(2);
    expect(await s.balance()).toBe(98);
  });

  it('every upstream failing or hanging, Mayan and Squid included, is a free 503', async () => {
    s = await setup(ALL_TIMEOUT, { all: true });
    s.lifi.reply(QUOTE_PATH.lifi, { hang: true });
    s.across.reply(QUOTE_PATH.across, { status: 502, body: 'bad gateway' });
    s.upstream.mayan.reply(QUOTE_PATH.mayan, { hang: true });
    s.upstream.squid.reply(QUOTE_PATH.squid, { status: 500, json: { message: 'internal' } });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().message).toMatch(/unavailable/);
    expect(await s.balance()).toBe(100);
  });

  it('Mayan answering for a newer SDK than installed fails Mayan alone, for free', async () => {
    s = await setup(ALL_TIMEOUT, { all: true });
    s.upstream.mayan.reply(QUOTE_PATH.mayan, { json: fixture('mayan', 'quote-outdated-sdk.json') });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().routes.map((r: { aggregator: string }) => r.aggregator)).not.toContain('mayan');
    for (const other of ['lifi', 'across', 'squid'] as const)
      s.upstream[other].reply(QUOTE_PATH[other], { hang: true });
    const none = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(none.statusCode, none.body).toBe(503);
    expect(await s.balance()).toBe(98);
  });

  it('no provider having a route is a free 404 "No route found"', async () => {
    s = await setup();
    s.lifi.reply('/v1/advanced/routes', { status: 404, json: fixture('lifi', 'quote-no-route-404.json') });
    s.across.reply('/api/swap/approval', {
      status: 400,
      json: fixture('across', 'swap-approval-route-disabled-400.json'),
    });
    // A real token the sandbox's price snapshot does not price: no sandbox route either.
    const q = new URLSearchParams(usdcQuery);
    q.set('toToken', '0x1111111111111111111111111111111111111111');
    const res = await s.get(`/partners/bridge/quote?${q}`);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toMatch(/^No route found for .* on eip155:42161 to .* on eip155:8453/);
    expect(await s.balance()).toBe(100);
  });

  it('upstreams refusing the request (400) is a free 400 carrying their reasons', async () => {
    s = await setup();
    s.lifi.reply('/v1/advanced/routes', { status: 400, json: fixture('lifi', 'quote-invalid-400.json') });
    s.across.reply('/api/swap/approval', {
      status: 400,
      json: fixture('across', 'swap-approval-invalid-param-400.json'),
    });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/lifi: Invalid request: fromAddress must be a valid address/);
    expect(res.json().message).toMatch(/across: /);
    expect(await s.balance()).toBe(100);
    // Another provider's route is still offered when only one upstream refuses.
    s.across.reply('/api/swap/approval', { json: fixture('across', 'swap-approval-usdc-arbitrum-base.json') });
    const ok = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().routes.map((r: { aggregator: string }) => r.aggregator)).toEqual(['across']);
  });

  it('drops a route whose transaction is not what was asked (wrong chain id)', async () => {
    s = await setup();
    const bad = structuredClone(fixture('lifi', 'quote-usdc-arbitrum-base.json')) as {
      transactionRequest: { chainId: number };
    };
    bad.transactionRequest.chainId = 1;
    replyLifiStep(s.lifi, bad);
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.json().routes.map((r: { aggregator: string }) => r.aggregator)).toEqual(['across']);
  });
});

describe('a Solana-source quote through Mayan', () => {
  let s: Setup;
  let rpc: SolanaRpcStandin;
  afterEach(async () => {
    await s.stop();
    await rpc.close();
  });

  it('answers a serialized v0 transaction the wallet signs alone, with no approval', async () => {
    rpc = await startSolanaRpcStandin();
    s = await setup({ ...ALL_TIMEOUT, MAYAN_SOLANA_RPC_URL: rpc.url }, { all: true });
    s.upstream.mayan.reply(QUOTE_PATH.mayan, { json: fixture('mayan', 'quote-usdc-solana-base.json') });
    const q = usdcQueryFor({
      fromChain: 'solana:mainnet-beta',
      fromToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      fromAddress: SOLANA_WALLET,
      toAddress: WALLET,
    });
    const res = await s.get(`/partners/bridge/quote?${q}`);
    expect(res.statusCode, res.body).toBe(200);
    const routes = res.json().routes as {
      aggregator: string;
      serializedTransaction: string | null;
      approvalTransaction: unknown;
      transactionData: { from: string; data: string };
    }[];
    // LI.FI's stand-in answers its Arbitrum route, which is dropped; Across and Squid serve no Solana source.
    expect(routes.map((r) => r.aggregator)).toEqual(['mayan']);
    const [route] = routes;
    expect(route?.approvalTransaction).toBeNull();
    expect(route?.transactionData).toMatchObject({ from: SOLANA_WALLET, data: route?.serializedTransaction });
    const tx = VersionedTransaction.deserialize(Buffer.from(route?.serializedTransaction ?? '', 'base64'));
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(SOLANA_WALLET);
    expect(tx.message.header.numRequiredSignatures).toBe(1);
    expect(await s.balance()).toBe(98);
  });
});

describe('sandbox and live partners never share routes', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => s.stop());

  it('with LI.FI and Across enabled, a live partner never sees a sandbox route and a sandbox partner sees only those', async () => {
    const sandbox = await s.app.partner(100, 'Sandbox Partner', { sandbox: true });
    const live = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().routes.map((r: { aggregator: string }) => r.aggregator)).toEqual(['across', 'lifi']);
    const quotesAsked = s.lifi.count('/v1/advanced/routes') + s.across.count('/api/swap/approval');

    const demo = await s.get(`/partners/bridge/quote?${usdcQuery}`, sandbox.apiKey);
    expect(demo.statusCode, demo.body).toBe(200);
    const routes = demo.json().routes as { aggregator: string; transactionData: { to: string; value: string } }[];
    expect(routes.map((r) => r.aggregator)).toEqual(['sandbox']);
    expect(routes[0]?.transactionData).toMatchObject({ to: WALLET, value: '0' });
    // The upstreams were not asked on the sandbox partner's behalf.
    expect(s.lifi.count('/v1/advanced/routes') + s.across.count('/api/swap/approval')).toBe(quotesAsked);
    expect(await s.balance(sandbox.apiKey)).toBe(98);

    // The catalogue too: the sandbox partner's providers are the sandbox alone.
    const gql = await s.app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-api-key': sandbox.apiKey },
      payload: { query: '{ bridgeProviders { name } }' },
    });
    expect(gql.json().data.bridgeProviders).toEqual([{ name: 'sandbox' }]);
  });
});

describe('one deadline per request', () => {
  let s: Setup;
  afterEach(async () => {
    await s.stop();
  });

  const TIMEOUT_MS = 600;

  it('a quote with hanging upstreams answers within the deadline, not one timeout per call, and is free', async () => {
    s = await setup({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) }, { all: true });
    // LI.FI never answers anything: its chain list (read twice, for both chains of the request), its
    // retry and its quote used to take a timeout each, one after the other.
    for (const path of ['/v1/chains', '/v1/tokens', '/v1/advanced/routes']) s.lifi.reply(path, { hang: true });
    s.across.reply('/api/swap/approval', { hang: true });
    s.upstream.mayan.reply(QUOTE_PATH.mayan, { hang: true });
    for (const path of ['/v2/sdk-info', QUOTE_PATH.squid]) s.upstream.squid.reply(path, { hang: true });
    const started = performance.now();
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    const elapsed = performance.now() - started;
    expect(res.statusCode, res.body).toBe(503);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.9);
    expect(elapsed).toBeLessThan(TIMEOUT_MS * 1.5);
    expect(await s.balance()).toBe(100);
    expect(await s.app.services.db.query('select id from bridge_route')).toEqual([]);
  });

  it("a hanging quote leaves the other upstream's route, answered within the deadline", async () => {
    s = await setup({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
    // Warm the catalogue so that only the quote itself can hang.
    expect((await s.get('/partners/bridge/chains')).statusCode).toBe(200);
    s.lifi.reply('/v1/advanced/routes', { hang: true });
    const started = performance.now();
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    const elapsed = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().routes.map((r: { aggregator: string }) => r.aggregator)).toEqual(['across']);
    expect(elapsed).toBeLessThan(TIMEOUT_MS * 1.5);
    expect(await s.balance()).toBe(100 - 1 - 2);
  });
});

describe('catalogue aggregation and cache', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => s.stop());

  it("chains: the spec chains first, then other providers' chains; cached in the database", async () => {
    const res = await s.get('/partners/bridge/chains');
    expect(res.statusCode).toBe(200);
    const { chains } = res.json();
    const ids = chains.map((c: { caip2Id: string }) => c.caip2Id);
    expect(ids.slice(0, 9)).toContain('eip155:8453');
    expect(new Set(ids).size).toBe(ids.length);
    // LI.FI's Polygon keeps the registry's description.
    expect(chains.find((c: { caip2Id: string }) => c.caip2Id === 'eip155:137')).toMatchObject({
      name: 'Polygon',
      isBridgeSupported: true,
    });
    const calls = s.lifi.count('/v1/chains') + s.across.count('/api/available-routes');
    expect(calls).toBeGreaterThanOrEqual(2);
    await s.get('/partners/bridge/chains');
    expect(s.lifi.count('/v1/chains') + s.across.count('/api/available-routes')).toBe(calls);
    const cached = await s.app.services.db.query<{ provider: string }>(
      "select provider from bridge_catalogue where resource = 'chains' order by provider",
    );
    expect(cached.map((r) => r.provider)).toEqual(['across', 'lifi']);
  });

  it('tokens: the union of the providers, native first, one entry per address, priced where anyone prices it', async () => {
    const res = await s.get('/partners/bridge/tokens?caip2Id=eip155:42161');
    expect(res.statusCode, res.body).toBe(200);
    const { caip2Id, tokens } = res.json();
    expect(caip2Id).toBe('eip155:42161');
    expect(tokens[0]).toMatchObject({ address: '0x0000000000000000000000000000000000000000', symbol: 'ETH' });
    const keys = tokens.map((t: { address: string }) => t.address.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    const usdc = tokens.filter((t: { address: string }) => t.address.toLowerCase() === USDC_ARB.toLowerCase());
    expect(usdc).toHaveLength(1);
    // Prices are the upstreams' own; a token none of them prices has none (LI.FI's PENDLE).
    for (const t of tokens) if ('priceUSD' in t) expect(t.priceUSD).toMatch(/^\d+(\.\d+)?$/);
    expect(usdc[0].priceUSD).toBe('0.99985');
    expect(tokens.find((t: { symbol: string }) => t.symbol === 'PENDLE')).not.toHaveProperty('priceUSD');
    expect(s.lifi.count('/v1/tokens')).toBe(1);
  });

  it('another process reuses the database copy within the TTL, refreshes after it, and serves stale on failure', async () => {
    const again = await startTestApp(
      { LIFI_API_URL: `${s.lifi.url}/v1`, ACROSS_API_URL: `${s.across.url}/api`, PROVIDER_TIMEOUT_MS: '400' },
      s.app.database,
    );
    try {
      const { apiKey } = await again.partner(10);
      const get = (url: string) => again.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
      s.lifi.resetCounts();
      expect((await get('/partners/bridge/chains')).statusCode).toBe(200);
      expect(s.lifi.count('/v1/chains')).toBe(0);
    } finally {
      await again.close();
    }
    // Expired: the next process asks the upstream again; the upstream failing, it serves the old copy.
    await s.app.services.db.run('update bridge_catalogue set fetched_at = ?', [new Date(Date.now() - 2 * 3600_000)]);
    s.lifi.reply('/v1/chains', { status: 503, json: { message: 'down' } });
    const third = await startTestApp(
      {
        LIFI_API_URL: `${s.lifi.url}/v1`,
        ACROSS_API_URL: `${s.across.url}/api`,
        PROVIDER_TIMEOUT_MS: '400',
      },
      s.app.database,
    );
    try {
      const { apiKey } = await third.partner(10);
      const res = await third.http.inject({
        method: 'GET',
        url: '/partners/bridge/chains',
        headers: { 'x-api-key': apiKey },
      });
      expect(res.statusCode).toBe(200);
      expect(s.lifi.count('/v1/chains')).toBeGreaterThan(0);
      // Only LI.FI's (stale) list says Polygon is bridged; Across has no Polygon route.
      const chains = res.json().chains as { caip2Id: string; isBridgeSupported: boolean }[];
      expect(chains.find((c) => c.caip2Id === 'eip155:137')?.isBridgeSupported).toBe(true);
      expect(chains.find((c) => c.caip2Id === 'eip155:43114')?.isBridgeSupported).toBe(false);
    } finally {
      await third.close();
    }
  });
});

/** Relay and deBridge answering their documented happy answers beside LI.FI and Across. */
function happyIntents(relay: Standin, debridge: Standin) {
  relay.reply('/chains', { json: fixture('relay', 'chains.json') });
  relay.reply('/currencies/v2', { json: fixture('relay', 'currencies-42161.json') });
  relay.reply('/quote/v2', { json: fixture('relay', 'quote-usdc-arbitrum-base.json') });
  debridge.reply('/v1.0/supported-chains-info', { json: fixture('debridge', 'supported-chains-info.json') });
  debridge.reply('/v1.0/token-list', { json: fixture('debridge', 'token-list-42161.json') });
  debridge.reply('/v1.0/dln/order/create-tx', { json: fixture('debridge', 'create-tx-usdc-arbitrum-base.json') });
}

/** Every live bridge upstream enabled, each a stand-in, as the fault tests run them. */
async function setupAll(env: Record<string, string> = {}, options: { all?: boolean } = {}) {
  const [relay, debridge] = await Promise.all([startStandin(), startStandin()]);
  happyIntents(relay, debridge);
  const base = await setup({ RELAY_API_URL: relay.url, DEBRIDGE_API_URL: `${debridge.url}/v1.0`, ...env }, options);
  return {
    ...base,
    relay,
    debridge,
    async stop() {
      await base.stop();
      await Promise.all([relay.close(), debridge.close()]);
    },
  };
}

type SetupAll = Awaited<ReturnType<typeof setupAll>>;

/** Each new upstream's quote path, to make it hang or fail. */
const QUOTE_PATHS = {
  relay: (s: SetupAll) => [s.relay, '/quote/v2'] as const,
  debridge: (s: SetupAll) => [s.debridge, '/v1.0/dln/order/create-tx'] as const,
};

describe('quote aggregation with Relay and deBridge enabled', () => {
  let s: SetupAll;
  afterEach(async () => {
    await s.stop();
  });
  const aggregators = (res: { json(): { routes: { aggregator: string }[] } }) =>
    res.json().routes.map((r) => r.aggregator);

  it('ranks the routes of all four providers together, best first in the order asked, charged once', async () => {
    s = await setupAll({ PROVIDER_TIMEOUT_MS: '2000' });
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(200);
    const routes = res.json().routes as { aggregator: string; toAmount: string; estimatedTimeSeconds: number }[];
    expect([...aggregators(res)].sort()).toEqual(['across', 'debridge', 'lifi', 'relay']);
    // CHEAPEST: the priced amounts received put Relay (99.92 USD) before Across, LI.FI and deBridge.
    expect(aggregators(res)).toEqual(['relay', 'across', 'lifi', 'debridge']);
    const amounts = routes.map((r) => BigInt(r.toAmount));
    expect(amounts).toEqual([...amounts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(s.relay.count('/quote/v2')).toBe(1);
    expect(s.debridge.count('/v1.0/dln/order/create-tx')).toBe(1);
    expect(await s.balance()).toBe(98);

    const fastest = await s.get(`/partners/bridge/quote?${usdcQuery}&order=FASTEST`);
    const times = (fastest.json().routes as { estimatedTimeSeconds: number }[]).map((r) => r.estimatedTimeSeconds);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const stored = await s.app.services.db.query<{ provider: string; tracking: string }>(
      "select provider, tracking from bridge_route where provider in ('relay', 'debridge')",
    );
    const tracking = Object.fromEntries(stored.map((r) => [r.provider, JSON.parse(r.tracking)]));
    expect(tracking.relay).toMatchObject({ requestId: `0x${'a1'.repeat(32)}` });
    expect(tracking.debridge).toMatchObject({ orderId: `0x${'d1'.repeat(32)}` });
  });

  for (const name of ['relay', 'debridge'] as const) {
    it(`${name} hanging: the others answer within the deadline, charged once`, async () => {
      s = await setupAll({ PROVIDER_TIMEOUT_MS: '600' });
      // Warm the catalogue so that only the quote itself can hang.
      expect((await s.get('/partners/bridge/chains')).statusCode).toBe(200);
      const [upstream, path] = QUOTE_PATHS[name](s);
      upstream.reply(path, { hang: true });
      const started = performance.now();
      const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
      const elapsed = performance.now() - started;
      expect(res.statusCode, res.body).toBe(200);
      expect(elapsed).toBeLessThan(600 * 1.5);
      expect(aggregators(res)).not.toContain(name);
      expect(aggregators(res)).toHaveLength(3);
      expect(await s.balance()).toBe(100 - 1 - 2);
    });

    it(`${name} failing with 5xx: the others answer, charged once`, async () => {
      s = await setupAll({ PROVIDER_TIMEOUT_MS: '1500' });
      // Warm the catalogue so that the retry fits the deadline.
      expect((await s.get('/partners/bridge/chains')).statusCode).toBe(200);
      const [upstream, path] = QUOTE_PATHS[name](s);
      upstream.reply(path, { status: 503, json: { message: 'maintenance' } });
      const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(aggregators(res)).not.toContain(name);
      expect(aggregators(res)).toHaveLength(3);
      // One retry of the transient failure, then given up.
      expect(upstream.count(path)).toBe(2);
      expect(await s.balance()).toBe(100 - 1 - 2);
    });
  }

  it('every upstream hanging or failing is a free 503 within the deadline', async () => {
    s = await setupAll({ PROVIDER_TIMEOUT_MS: '600' });
    expect((await s.get('/partners/bridge/chains')).statusCode).toBe(200);
    const before = await s.balance();
    s.lifi.reply('/v1/advanced/routes', { hang: true });
    s.across.reply('/api/swap/approval', { status: 502, body: 'bad gateway' });
    s.relay.reply('/quote/v2', { hang: true });
    s.debridge.reply('/v1.0/dln/order/create-tx', { status: 500, json: { errorMessage: 'down' } });
    const started = performance.now();
    const res = await s.get(`/partners/bridge/quote?${usdcQuery}`);
    expect(res.statusCode, res.body).toBe(503);
    expect(performance.now() - started).toBeLessThan(600 * 1.5);
    expect(res.json().message).toMatch(/unavailable/);
    expect(await s.balance()).toBe(before);
  });

  it('status of a quoted route asks its provider by the tracked request id or order id, not by hash', async () => {
    s = await setupAll({ PROVIDER_TIMEOUT_MS: '2000' });
    s.relay.reply('/intents/status/v3', { json: fixture('relay', 'intent-status-success.json') });
    s.debridge.reply(`/v1.0/dln/order/0x${'d1'.repeat(32)}/status`, {
      json: { orderId: `0x${'d1'.repeat(32)}`, status: 'Created' },
    });
    const routes = (await s.get(`/partners/bridge/quote?${usdcQuery}`)).json().routes as {
      id: string;
      aggregator: string;
    }[];
    const idOf = (name: string) => routes.find((r) => r.aggregator === name)?.id;
    const relay = await s.get(`/partners/bridge/status?txHash=0x${'12'.repeat(32)}&routeId=${idOf('relay')}`);
    expect(relay.statusCode, relay.body).toBe(200);
    expect(relay.json()).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', aggregator: 'relay', progress: 100 });
    expect(s.relay.requests('/intents/status/v3')[0]?.query).toEqual({ requestId: `0x${'a1'.repeat(32)}` });
    expect(s.relay.count('/requests/v2')).toBe(0);
    const dln = await s.get(`/partners/bridge/status?txHash=0x${'13'.repeat(32)}&routeId=${idOf('debridge')}`);
    expect(dln.statusCode, dln.body).toBe(200);
    expect(dln.json()).toMatchObject({ status: 'PENDING', substatus: 'CREATED', aggregator: 'debridge' });
    expect(s.debridge.requests().some((r) => r.path.includes('/order-ids'))).toBe(false);
  });

  it('a Solana-source quote carries the serialized transaction deBridge built, paid by the sender', async () => {
    // The first Solana route of a process loads @solana/web3.js, which takes longer than the 400 ms used above.
    s = await setupAll({ PROVIDER_TIMEOUT_MS: '3000' });
    s.debridge.reply('/v1.0/dln/order/create-tx', {
      json: fixture('debridge', 'create-tx-usdc-solana-arbitrum.json'),
    });
    const q = new URLSearchParams({
      fromChain: 'solana:mainnet-beta',
      toChain: 'eip155:42161',
      fromToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      toToken: USDC_ARB,
      fromAmount: '100000000',
      fromAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      toAddress: WALLET,
    });
    const res = await s.get(`/partners/bridge/quote?${q}`);
    expect(res.statusCode, res.body).toBe(200);
    const route = (res.json().routes as { aggregator: string; serializedTransaction: string | null }[]).find(
      (r) => r.aggregator === 'debridge',
    );
    const { VersionedTransaction } = await import('@solana/web3.js');
    const tx = VersionedTransaction.deserialize(Buffer.from(route?.serializedTransaction ?? '', 'base64'));
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
  });
});

describe('quote aggregation with all six live upstreams enabled', () => {
  it('ranks the routes of LI.FI, Across, Relay, deBridge, Mayan and Squid together, best first, charged once', async () => {
    const s = await setupAll(ALL_TIMEOUT, { all: true });
    try {
      const res = await s.get(`/partners/bridge/quote?${usdcQueryFor({ maxRoutes: '20' })}`);
      expect(res.statusCode, res.body).toBe(200);
      const routes = res.json().routes as { aggregator: string; toAmount: string }[];
      expect(new Set(routes.map((r) => r.aggregator))).toEqual(
        new Set(['lifi', 'across', 'relay', 'debridge', 'mayan', 'squid']),
      );
      const amounts = routes.map((r) => BigInt(r.toAmount));
      expect(amounts).toEqual([...amounts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
      const fastest = await s.get(`/partners/bridge/quote?${usdcQueryFor({ maxRoutes: '20', order: 'FASTEST' })}`);
      const times = (fastest.json().routes as { estimatedTimeSeconds: number }[]).map((r) => r.estimatedTimeSeconds);
      expect(times).toHaveLength(routes.length);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(await s.balance()).toBe(96);
    } finally {
      await s.stop();
    }
  });
});
