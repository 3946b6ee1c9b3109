/**
 * Routes a wallet can execute and tune (issue 15): approval data for ERC-20 sources, order and the
 * bridge lists reaching the upstream, honest bridge names and substatus, Across's Swap API, expiry,
 * and ERC-20 routes of LI.FI, Squid and Mayan executed on anvil from a test wallet. The upstreams are
 * loopback stand-ins replaying the documented answers in test/fixtures/{lifi,across,squid,mayan}.
 */
import { readFileSync } from 'node:fs';
import { type Address, createTestClient, decodeFunctionData, encodeFunctionData, erc20Abi, type Hex, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../test/support/anvil.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { usdcQuery } from './bridge.test-helper.js';
import { deployTestBridge, type TestBridgeChain } from './contracts.test-helper.js';
import { FIXTURE_WALLET, USDC_ARB, USDC_BASE } from './providers/provider.test-helper.js';
import type { TransactionData as Tx } from './providers/types.js';

const fixture = (dir: string, name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/${dir}/${name}`, import.meta.url), 'utf8'));

const WALLET = FIXTURE_WALLET;
const LIFI_DIAMOND = '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE';
const SPOKE_ARB = '0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A';

interface RouteBody {
  id: string;
  bridgeProvider: string;
  aggregator: string;
  toAmount: string;
  estimatedTimeSeconds: number;
  expiresAt: number;
  approvalAddress: string | null;
  approvalTransaction: Tx | null;
  transactionData: Tx;
}
type Step = { tool: string; estimate: { toAmount: string; executionDuration: number }; [k: string]: unknown };
type RoutesBody = {
  options?: { order?: string; bridges?: { allow?: string[]; deny?: string[] }; integrator?: string; fee?: number };
};

/** LI.FI stand-in: /advanced/routes ranks and filters the documented routes as LI.FI documents it. */
function lifiRoutes(lifi: Standin, routesFixture: { routes: { steps: Step[] }[] }) {
  lifi.reply('/v1/advanced/routes', (req) => {
    const options = (req.body as RoutesBody).options ?? {};
    const allow = options.bridges?.allow;
    const deny = options.bridges?.deny ?? [];
    let routes = routesFixture.routes.filter((r) =>
      r.steps.every((s) => (!allow || allow.includes(s.tool)) && !deny.includes(s.tool)),
    );
    const time = (r: { steps: Step[] }) => r.steps.reduce((t, s) => t + s.estimate.executionDuration, 0);
    const amount = (r: { steps: Step[] }) => BigInt(r.steps.at(-1)?.estimate.toAmount ?? 0);
    routes = [...routes].sort((a, b) =>
      options.order === 'FASTEST' ? time(a) - time(b) : Number(amount(b) - amount(a)),
    );
    return { json: { routes, unavailableRoutes: { filteredOut: [], failed: [] } } };
  });
}

/** /advanced/stepTransaction: the step back with its transaction (data differs per tool, as each bridge's does). */
function lifiStepTransaction(lifi: Standin, txFor: (step: Step) => Tx) {
  lifi.reply('/v1/advanced/stepTransaction', (req) => {
    const step = req.body as Step;
    return { json: { ...step, transactionRequest: txFor(step) } };
  });
}

const quoteFixture = fixture('lifi', 'quote-usdc-arbitrum-base.json') as { transactionRequest: Tx };
const toolData = (tool: string) => `${quoteFixture.transactionRequest.data}${Buffer.from(tool).toString('hex')}`;

describe('bridge quotes against the LI.FI and Across stand-ins', () => {
  let lifi: Standin;
  let across: Standin;
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    [lifi, across] = await Promise.all([startStandin(), startStandin()]);
    lifi.reply('/v1/chains', { json: fixture('lifi', 'chains.json') });
    lifiRoutes(lifi, fixture('lifi', 'routes-usdc-arbitrum-base.json') as { routes: { steps: Step[] }[] });
    lifiStepTransaction(lifi, (step) => ({ ...quoteFixture.transactionRequest, data: toolData(step.tool) }));
    across.reply('/api/available-routes', { json: fixture('across', 'available-routes.json') });
    across.reply('/api/swap/tokens', (req) => ({ json: fixture('across', `swap-tokens-${req.query.chainId}.json`) }));
    across.reply('/api/swap/approval', { json: fixture('across', 'swap-approval-usdc-arbitrum-base.json') });
    app = await startTestApp({
      LIFI_API_URL: `${lifi.url}/v1`,
      ACROSS_API_URL: `${across.url}/api`,
      ACROSS_API_KEY: 'across-test-key',
      ACROSS_INTEGRATOR_ID: '0x00ab',
      BRIDGE_INTEGRATOR: 'cipgate-test',
      BRIDGE_FEE: '0.003',
      PROVIDER_TIMEOUT_MS: '2000',
    });
    ({ apiKey } = await app.partner(1000));
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([lifi?.close(), across?.close()]);
  });

  const get = (url: string) => app.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const balance = async () => (await get('/partners/stats')).json().creditBalance as number;
  const quote = (extra: Record<string, string> = {}) => get(`/partners/bridge/quote?${usdcQuery(extra)}`);

  it('an ERC-20 route carries approvalAddress and an approve(spender, amount) transaction; names the real bridge', async () => {
    const res = await quote();
    expect(res.statusCode, res.body).toBe(200);
    const routes = res.json().routes as RouteBody[];
    const viaLifi = routes.filter((r) => r.aggregator === 'lifi');
    // The two-step LI.FI route cannot be one transaction: only the two single-step routes are offered.
    expect(viaLifi.map((r) => r.bridgeProvider).sort()).toEqual(['across', 'stargatev2']);
    for (const route of routes) {
      const approval = route.approvalTransaction as Tx;
      expect(approval, route.bridgeProvider).not.toBeNull();
      expect(approval).toMatchObject({
        to: expect.stringMatching(new RegExp(USDC_ARB, 'i')),
        value: '0',
        chainId: 42161,
      });
      expect(approval.from.toLowerCase()).toBe(WALLET.toLowerCase());
      const call = decodeFunctionData({ abi: erc20Abi, data: approval.data as Hex });
      expect(call.functionName).toBe('approve');
      const [spender, amount] = call.args as [string, bigint];
      expect(spender.toLowerCase()).toBe(route.approvalAddress?.toLowerCase());
      expect(amount).toBe(100_000_000n);
      expect(route.expiresAt).toBeGreaterThan(Date.now() / 1000);
    }
    expect(viaLifi[0]?.approvalAddress?.toLowerCase()).toBe(LIFI_DIAMOND.toLowerCase());
    const viaAcross = routes.find((r) => r.aggregator === 'across');
    expect(viaAcross).toMatchObject({ bridgeProvider: 'across' });
    expect(viaAcross?.approvalAddress?.toLowerCase()).toBe(SPOKE_ARB.toLowerCase());
    expect(viaAcross?.transactionData.to.toLowerCase()).toBe(SPOKE_ARB.toLowerCase());
  });

  it('sends integrator, fee and the Across API key and integrator id upstream', async () => {
    lifi.resetCounts();
    across.resetCounts();
    expect((await quote()).statusCode).toBe(200);
    const body = lifi.requests('/v1/advanced/routes')[0]?.body as RoutesBody;
    expect(body.options).toMatchObject({ integrator: 'cipgate-test', fee: 0.003, order: 'CHEAPEST' });
    const swap = across.requests('/api/swap/approval')[0];
    expect(swap?.headers.authorization).toBe('Bearer across-test-key');
    expect(swap?.query).toMatchObject({ integratorId: '0x00ab', tradeType: 'exactInput', amount: '100000000' });
    expect(across.count('/api/suggested-fees')).toBe(0);
  });

  it('order reaches LI.FI and changes the ranking', async () => {
    lifi.resetCounts();
    const viaLifi = async (order: string) =>
      ((await quote({ order })).json().routes as RouteBody[]).filter((r) => r.aggregator === 'lifi');
    const cheapest = await viaLifi('CHEAPEST');
    const fastest = await viaLifi('FASTEST');
    const orders = lifi.requests('/v1/advanced/routes').map((r) => (r.body as RoutesBody).options?.order);
    expect(orders).toEqual(['CHEAPEST', 'FASTEST']);
    expect(fastest[0]?.estimatedTimeSeconds).toBe(Math.min(...fastest.map((r) => r.estimatedTimeSeconds)));
    expect(fastest[0]?.bridgeProvider).not.toBe(cheapest[0]?.bridgeProvider);
    expect(BigInt(cheapest[0]?.toAmount ?? 0)).toBeGreaterThanOrEqual(BigInt(cheapest[1]?.toAmount ?? 0));
  });

  it('allowBridges and denyBridges reach LI.FI and change the answer; maxRoutes caps it', async () => {
    lifi.resetCounts();
    const allowed = (await quote({ allowBridges: 'stargateV2' })).json().routes as RouteBody[];
    expect(allowed.map((r) => r.bridgeProvider)).toEqual(['stargatev2']);
    const denied = (await quote({ denyBridges: 'stargateV2' })).json().routes as RouteBody[];
    expect(denied.map((r) => r.bridgeProvider)).not.toContain('stargatev2');
    expect(denied.length).toBeGreaterThan(0);
    const [a, d] = lifi.requests('/v1/advanced/routes').map((r) => (r.body as RoutesBody).options?.bridges);
    expect(a).toEqual({ allow: ['stargateV2'] });
    expect(d).toEqual({ deny: ['stargateV2'] });
    expect(((await quote({ maxRoutes: '1' })).json().routes as RouteBody[]).length).toBe(1);
  });

  it('bad order, bridge lists and maxRoutes are free 400s', async () => {
    const before = await balance();
    const bad: Record<string, string>[] = [
      { order: 'CHEAP' },
      { allowBridges: 'across,,stargate' },
      { denyBridges: 'no spaces' },
      { allowBridges: 'across', denyBridges: 'ACROSS' },
      { maxRoutes: '0' },
      { maxRoutes: '21' },
      { maxRoutes: 'many' },
    ];
    for (const extra of bad) {
      const res = await quote(extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().message, JSON.stringify(extra)).toMatch(/order|Bridges|maxRoutes/);
    }
    expect(await balance()).toBe(before);
  });

  it('a REFUNDED transfer answers DONE with substatus REFUNDED and progress below 100; COMPLETED is 100', async () => {
    lifi.reply('/v1/status', { json: fixture('lifi', 'status-done-refunded.json') });
    const hash = `0x${'ab'.repeat(32)}`;
    const res = await get(`/partners/bridge/status?txHash=${hash}&bridge=lifi`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'DONE', substatus: 'REFUNDED', aggregator: 'lifi', bridge: 'across' });
    expect(body.substatusMessage).toMatch(/refunded/i);
    expect(body.progress).toBeLessThan(100);

    lifi.reply('/v1/status', { json: fixture('lifi', 'status-done.json') });
    // A bridge name as hint (not a provider name) reaches LI.FI as its `bridge` parameter.
    lifi.resetCounts();
    const done = await get(`/partners/bridge/status?txHash=0x${'cd'.repeat(32)}&bridge=stargateV2`);
    expect(lifi.requests('/v1/status')[0]?.query.bridge).toBe('stargateV2');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', progress: 100 });
  });

  it('a route past its expiry is refused at the status lookup with a clear, free 400', async () => {
    const [route] = (await quote({ maxRoutes: '1' })).json().routes as RouteBody[];
    if (!route) throw new Error('no route');
    const hash = `0x${'12'.repeat(32)}`;
    // Waiting out BRIDGE_QUOTE_TTL_SECONDS (at least 30 s) is too slow for a test: age the stored route instead.
    const db = app.services.db;
    const [row] = await db.query<{ route: string }>('select route from bridge_route where id = ?', [route.id]);
    const aged = { ...JSON.parse(row?.route ?? '{}'), expiresAt: Math.floor(Date.now() / 1000) - 1 };
    await db.run('update bridge_route set route = ? where id = ?', [JSON.stringify(aged), route.id]);
    const before = await balance();
    const res = await get(`/partners/bridge/status?txHash=${hash}&routeId=${route.id}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/expired at .*request a new quote/);
    expect(await balance()).toBe(before);
  });

  it('a bad bridge hint is a free 400', async () => {
    const before = await balance();
    const res = await get(
      `/partners/bridge/status?txHash=0x${'ef'.repeat(32)}&bridge=${encodeURIComponent('no such!')}`,
    );
    expect(res.statusCode).toBe(400);
    expect(await balance()).toBe(before);
  });

  it('Across: no approval transaction when the API saw a sufficient allowance, spender still named', async () => {
    across.reply('/api/swap/approval', { json: fixture('across', 'swap-approval-usdc-allowance-sufficient.json') });
    try {
      const routes = (await quote()).json().routes as RouteBody[];
      const viaAcross = routes.find((r) => r.aggregator === 'across');
      expect(viaAcross?.approvalAddress?.toLowerCase()).toBe(SPOKE_ARB.toLowerCase());
      expect(viaAcross?.approvalTransaction).toBeNull();
    } finally {
      across.reply('/api/swap/approval', { json: fixture('across', 'swap-approval-usdc-arbitrum-base.json') });
    }
  });
});

describe('an ERC-20 route executed on anvil', () => {
  let anvil: Anvil;
  let lifi: Standin;
  let app: TestApp;
  let apiKey: string;
  let chain: TestBridgeChain;
  let sender: Address;
  let token: Address;
  let bridge: Address;

  beforeAll(async () => {
    [anvil, lifi] = await Promise.all([startAnvil({ chainId: 1 }), startStandin()]);
    chain = await deployTestBridge(anvil.rpcUrl, 1_000_000_000n);
    ({ sender, token, bridge } = chain);
    const bridgeAbi = chain.artifacts.TestBridge.abi;

    // A LI.FI route on chain 1 whose spender and target is the test bridge, as a Step LI.FI documents.
    const step = structuredClone(fixture('lifi', 'quote-usdc-arbitrum-base.json')) as {
      action: Record<string, unknown> & { fromToken: Record<string, unknown>; toToken: Record<string, unknown> };
      estimate: Record<string, unknown>;
      transactionRequest?: unknown;
    };
    delete step.transactionRequest;
    Object.assign(step.action, { fromChainId: 1, fromAddress: sender, toAddress: sender, fromAmount: '250000000' });
    Object.assign(step.action.fromToken, { address: token, chainId: 1 });
    Object.assign(step.estimate, { fromAmount: '250000000', approvalAddress: bridge });
    lifiRoutes(lifi, { routes: [{ steps: [step as unknown as Step] }] });
    lifiStepTransaction(lifi, () => ({
      from: sender,
      to: bridge,
      data: encodeFunctionData({ abi: bridgeAbi, functionName: 'deposit', args: [token, 250_000_000n, 8453n] }),
      value: '0x0',
      gasLimit: '0x30d40',
      gasPrice: '0x77359400',
      chainId: 1,
    }));
    lifi.reply('/v1/chains', { json: fixture('lifi', 'chains.json') });
    app = await startTestApp({ LIFI_API_URL: `${lifi.url}/v1`, PROVIDER_TIMEOUT_MS: '2000' });
    ({ apiKey } = await app.partner(100));
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([anvil?.stop(), lifi?.close()]);
  });

  it('approve then the route transaction succeeds, and the bridge pulled the tokens', async () => {
    const q = new URLSearchParams({
      fromChain: 'eip155:1',
      toChain: 'eip155:8453',
      fromToken: token,
      toToken: USDC_BASE,
      fromAmount: '250000000',
      fromAddress: sender,
    });
    const res = await app.http.inject({
      method: 'GET',
      url: `/partners/bridge/quote?${q}`,
      headers: { 'x-api-key': apiKey },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [route] = res.json().routes as RouteBody[];
    if (!route?.approvalTransaction) throw new Error('route has no approval transaction');
    const r = chain.reader;
    const { send } = chain;
    // Without the approval, the route's own transaction reverts: the approval is what makes it executable.
    await expect(
      r.call({ account: sender, to: route.transactionData.to as Address, data: route.transactionData.data as Hex }),
    ).rejects.toThrow(/allowance/);
    expect((await send(route.approvalTransaction)).status).toBe('success');
    expect((await send(route.transactionData)).status).toBe('success');
    expect(await chain.balanceOf(bridge)).toBe(250_000_000n);
  });
});

/**
 * Squid's and Mayan's routes for a test token on anvil (chain 1). Squid's router is the test bridge,
 * as the route's `target` names it. Mayan's transaction is built by its SDK for Mayan's real forwarder
 * address; the test forwarder's code is put at that address, so the transaction is sent unchanged.
 */
describe('Squid and Mayan ERC-20 routes executed on anvil', () => {
  const MAYAN_FORWARDER = '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2' as Address;
  const AMOUNT = 250_000_000n;
  let anvil: Anvil;
  let squid: Standin;
  let mayan: Standin;
  let app: TestApp;
  let apiKey: string;
  let chain: TestBridgeChain;
  let sender: Address;
  let token: Address;
  let bridge: Address;

  beforeAll(async () => {
    // Loaded before the app starts, as a server does at boot (see aggregation.test.ts).
    await import('@mayanfinance/swap-sdk');
    [anvil, squid, mayan] = await Promise.all([startAnvil({ chainId: 1 }), startStandin(), startStandin()]);
    chain = await deployTestBridge(anvil.rpcUrl, 10n * AMOUNT);
    ({ sender, token, bridge } = chain);
    const bridgeAbi = chain.artifacts.TestBridge.abi;
    const forwarder = await chain.deploy(chain.artifacts.TestMayanForwarder);
    const code = await chain.reader.getCode({ address: forwarder });
    await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).setCode({
      address: MAYAN_FORWARDER,
      bytecode: code as Hex,
    });

    // Squid's documented route, moved to chain 1 and the test token, with the test bridge as router.
    const route = structuredClone(fixture('squid', 'route-usdc-arbitrum-base.json')) as {
      route: { estimate: Record<string, unknown>; transactionRequest: Record<string, unknown> };
    };
    Object.assign(route.route.estimate, { fromAmount: AMOUNT.toString() });
    Object.assign(route.route.transactionRequest, {
      target: bridge,
      data: encodeFunctionData({ abi: bridgeAbi, functionName: 'deposit', args: [token, AMOUNT, 8453n] }),
      value: '0',
    });
    squid.reply('/v2/route', { json: route });
    squid.reply('/v2/sdk-info', { json: fixture('squid', 'sdk-info.json') });

    // Mayan's documented Swift quote, from the test token on Ethereum.
    const quotes = structuredClone(fixture('mayan', 'quote-usdc-arbitrum-base.json')) as {
      quotes: Record<string, unknown>[];
    };
    const swift = quotes.quotes[0] as Record<string, unknown> & { fromToken: Record<string, unknown> };
    Object.assign(swift.fromToken, { contract: token, mint: token, chainId: 1, wChainId: 2 });
    Object.assign(swift, {
      fromChain: 'ethereum',
      swiftInputContract: token,
      swiftVerifiedInputAddress: token,
      effectiveAmountIn64: AMOUNT.toString(),
    });
    mayan.reply('/price/v3/quote', { json: { quotes: [swift], minimumSdkVersion: [7, 0, 0] } });

    app = await startTestApp({
      SQUID_API_URL: squid.url,
      SQUID_INTEGRATOR_ID: 'cipgate-test',
      MAYAN_PRICE_API_URL: `${mayan.url}/price/v3`,
      MAYAN_EXPLORER_API_URL: `${mayan.url}/explorer/v3`,
      PROVIDER_TIMEOUT_MS: '3000',
    });
    ({ apiKey } = await app.partner(100));
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([anvil?.stop(), squid?.close(), mayan?.close()]);
  });

  it.each([
    ['squid', () => bridge],
    ['mayan', () => MAYAN_FORWARDER],
  ] as const)(
    '%s: approve then the route transaction succeeds, and the spender pulled the tokens',
    async (name, spender) => {
      const q = new URLSearchParams({
        fromChain: 'eip155:1',
        toChain: 'eip155:8453',
        fromToken: token,
        toToken: USDC_BASE,
        fromAmount: AMOUNT.toString(),
        fromAddress: sender,
        allowBridges: name === 'squid' ? 'axelar' : 'mayan',
      });
      const res = await app.http.inject({
        method: 'GET',
        url: `/partners/bridge/quote?${q}`,
        headers: { 'x-api-key': apiKey },
      });
      expect(res.statusCode, res.body).toBe(200);
      const routes = (res.json().routes as RouteBody[]).filter((r) => r.aggregator === name);
      const [route] = routes;
      if (!route?.approvalTransaction) throw new Error(`${name} route has no approval transaction`);
      expect(route.approvalAddress?.toLowerCase()).toBe(spender().toLowerCase());
      expect(route.transactionData.to.toLowerCase()).toBe(spender().toLowerCase());
      const r = chain.reader;
      // Without the approval, the route's own transaction reverts.
      await expect(
        r.call({ account: sender, to: route.transactionData.to as Address, data: route.transactionData.data as Hex }),
      ).rejects.toThrow();
      const before = await chain.balanceOf(spender());
      expect((await chain.send(route.approvalTransaction)).status).toBe('success');
      expect((await chain.send(route.transactionData)).status).toBe('success');
      expect((await chain.balanceOf(spender())) - before).toBe(AMOUNT);
    },
  );
});
