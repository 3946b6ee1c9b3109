import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/use-app.js';
import { KNOWN_CHAINS, NATIVE_EVM, NATIVE_SOLANA } from '../../platform/chains/registry.js';
import { startupSummary } from '../../startup-summary.js';
import {
  ETH_TO_BASE,
  partnerGet,
  SANDBOX_ETH_TO_BASE_ROUTE,
  SANDBOX_WALLET,
  SPEC_CHAINS,
} from './bridge.test-helper.js';

/**
 * The service with no upstream configured: sandbox partners get the sandbox (offline catalogue seed
 * and demo quotes); live partners get nothing invented, only free 503s.
 */
describe('bridge, embedded default, for a sandbox partner', () => {
  const app = useTestApp();
  const get = partnerGet(app);
  const gql = (apiKey: string, query: string, variables: Record<string, unknown> = {}) =>
    app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      payload: { query, variables },
    });
  const balance = async (apiKey: string) => (await get(apiKey, '/partners/stats')).json().creditBalance as number;
  const sandboxPartner = (credits: number) => app.partner(credits, 'Sandbox Partner', { sandbox: true });

  const WALLET = SANDBOX_WALLET;
  const ethToBase = ETH_TO_BASE;

  it('lists the spec chains, all bridged by the sandbox, for 1 credit', async () => {
    const { apiKey } = await sandboxPartner(10);
    const res = await get(apiKey, '/partners/bridge/chains');
    expect(res.statusCode).toBe(200);
    const { chains } = res.json();
    const spec = KNOWN_CHAINS.filter((c) => c.bridgeable).map((c) => c.caip2Id);
    expect(chains.map((c: { caip2Id: string }) => c.caip2Id)).toEqual(spec);
    expect(spec).toEqual(SPEC_CHAINS);
    expect(chains[0]).toEqual({
      caip2Id: 'eip155:1',
      name: 'Ethereum',
      nativeToken: 'ETH',
      logoURI: expect.stringMatching(/^https:\/\//),
      isBridgeSupported: true,
    });
    expect(chains.every((c: { isBridgeSupported: boolean }) => c.isBridgeSupported)).toBe(true);
    expect(await balance(apiKey)).toBe(9);
  });

  it('lists real tokens of a chain, native first, with no invented price', async () => {
    const { apiKey } = await sandboxPartner(10);
    const res = await get(apiKey, '/partners/bridge/tokens?caip2Id=eip155:1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.caip2Id).toBe('eip155:1');
    expect(body.tokens[0]).toMatchObject({ address: NATIVE_EVM, symbol: 'ETH', decimals: 18 });
    const usdc = body.tokens.find((t: { symbol: string }) => t.symbol === 'USDC');
    expect(usdc).toMatchObject({ address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 });
    // The snapshot behind sandbox quotes is demo data: it is never shown as a token's price.
    for (const t of body.tokens) expect(t).not.toHaveProperty('priceUSD');
    const sol = (await get(apiKey, '/partners/bridge/tokens?caip2Id=solana:mainnet-beta')).json();
    expect(sol.tokens[0]).toMatchObject({ address: NATIVE_SOLANA, symbol: 'SOL', decimals: 9 });
    expect(sol.tokens.find((t: { symbol: string }) => t.symbol === 'USDC')?.address).toBe(
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    );
    expect(await balance(apiKey)).toBe(8);
  });

  it('quotes ETH on Ethereum to ETH on Base through the sandbox for 2 credits (REST)', async () => {
    const { apiKey } = await sandboxPartner(10);
    const res = await get(apiKey, `/partners/bridge/quote?${new URLSearchParams(ethToBase)}`);
    expect(res.statusCode).toBe(200);
    const { routes } = res.json();
    expect(routes).toHaveLength(1);
    const [route] = routes;
    expect(route).toMatchObject(SANDBOX_ETH_TO_BASE_ROUTE);
    expect(route.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(BigInt(route.toAmountMin)).toBeLessThanOrEqual(BigInt(route.toAmount));
    expect(BigInt(route.toAmount)).toBeLessThan(BigInt(route.fromAmount));
    // Default slippage 3 %.
    expect(BigInt(route.toAmountMin)).toBe((BigInt(route.toAmount) * 97n) / 100n);
    // Harmless if signed on a real network: a call to the sender's own address moving nothing.
    expect(route.transactionData).toMatchObject({ chainId: 1, from: WALLET, to: WALLET, value: '0' });
    expect(route.transactionData.data).toMatch(/^0x[0-9a-f]+$/);
    expect(route).not.toHaveProperty('tracking');
    expect(await balance(apiKey)).toBe(8);
    const [stored] = await app.services.db.query<{ provider: string; tracking: string }>(
      'select provider, tracking from bridge_route where id = ?',
      [route.id],
    );
    expect(stored?.provider).toBe('sandbox');
    expect(JSON.parse(stored?.tracking ?? '{}')).toMatchObject({ provider: 'sandbox', fromChain: 'eip155:1' });
  });

  it('answers the same quote through GraphQL, with the same input names, for 2 credits', async () => {
    const { apiKey } = await sandboxPartner(10);
    const res = await gql(
      apiKey,
      `query Q($input: BridgeQuoteInput!) { bridgeQuote(input: $input) {
        id toAmount toAmountMin bridgeProvider transactionData { from chainId value } } }`,
      { input: { ...ethToBase, slippage: 0.01 } },
    );
    const body = res.json();
    expect(body.errors).toBeUndefined();
    const [route] = body.data.bridgeQuote;
    expect(route.transactionData).toEqual({ from: WALLET, chainId: 1, value: '0' });
    expect(BigInt(route.toAmountMin)).toBe((BigInt(route.toAmount) * 99n) / 100n);
    expect(await balance(apiKey)).toBe(8);
  });

  it('lists the providers serving each partner, for free: the sandbox alone, or the upstreams and why they are off', async () => {
    const sandbox = await sandboxPartner(10);
    const live = await app.partner(10);
    const providers = async (apiKey: string) =>
      (await gql(apiKey, '{ bridgeProviders { name enabled reason } }')).json().data.bridgeProviders;
    expect(await providers(sandbox.apiKey)).toEqual([{ name: 'sandbox', enabled: true, reason: null }]);
    expect(await providers(live.apiKey)).toEqual([
      { name: 'lifi', enabled: false, reason: expect.stringMatching(/LIFI_ENABLED=true or LIFI_API_URL/) },
      { name: 'across', enabled: false, reason: expect.stringMatching(/ACROSS_ENABLED=true or ACROSS_API_URL/) },
      { name: 'relay', enabled: false, reason: expect.stringMatching(/RELAY_ENABLED=true or RELAY_API_URL/) },
      { name: 'debridge', enabled: false, reason: expect.stringMatching(/DEBRIDGE_ENABLED=true or DEBRIDGE_API_URL/) },
      {
        name: 'mayan',
        enabled: false,
        reason: expect.stringMatching(/MAYAN_PRICE_API_URL and MAYAN_EXPLORER_API_URL, or MAYAN_ENABLED=true/),
      },
      { name: 'squid', enabled: false, reason: expect.stringMatching(/SQUID_INTEGRATOR_ID is not set/) },
    ]);
    expect(await balance(sandbox.apiKey)).toBe(10);
    expect(await balance(live.apiKey)).toBe(10);
    // An operator reads the same states, in the same words, in /readyz and the start-up line.
    const listed = Object.fromEntries(
      (await providers(live.apiKey)).map((p: { name: string; enabled: boolean; reason: string | null }) => [
        p.name,
        p.enabled ? 'enabled' : `disabled: ${p.reason}`,
      ]),
    );
    expect((await app.http.inject({ method: 'GET', url: '/readyz' })).json().bridge).toEqual(listed);
    expect(startupSummary(app.services.config, app.services).bridge).toEqual(listed);
  });

  it('a quote the sandbox cannot price is a free 404 "No route found"', async () => {
    const { apiKey } = await sandboxPartner(10);
    const q = { ...ethToBase, toToken: '0x1111111111111111111111111111111111111111' };
    const res = await get(apiKey, `/partners/bridge/quote?${new URLSearchParams(q)}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: expect.stringMatching(/^No route found/),
    });
    expect(await balance(apiKey)).toBe(10);
  });
});

describe('bridge, embedded default, for a live partner: no upstream, no answer, no charge', () => {
  const app = useTestApp();
  const get = partnerGet(app);
  const quote = new URLSearchParams(ETH_TO_BASE);

  it('chains, tokens and quote are free 503s on REST, never the seed or a sandbox route', async () => {
    const { apiKey } = await app.partner(10);
    for (const url of [
      '/partners/bridge/chains',
      '/partners/bridge/tokens?caip2Id=eip155:1',
      `/partners/bridge/quote?${quote}`,
    ]) {
      const res = await get(apiKey, url);
      expect(res.statusCode, `${url} ${res.body}`).toBe(503);
      expect(res.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'No bridge provider is enabled',
      });
    }
    expect((await get(apiKey, '/partners/stats')).json()).toMatchObject({ creditBalance: 10, creditUsage: 0 });
    const routes = await app.services.db.query('select id from bridge_route');
    expect(routes).toEqual([]);
  });

  it('the same on GraphQL: UPSTREAM_UNAVAILABLE, free', async () => {
    const { apiKey } = await app.partner(10);
    for (const query of [
      '{ bridgeChains { caip2Id } }',
      '{ bridgeTokens(caip2Id: "eip155:1") { tokens { symbol } } }',
      `{ bridgeQuote(input: { fromChain: "eip155:1", toChain: "eip155:8453", fromToken: "${NATIVE_EVM}", toToken: "${NATIVE_EVM}", fromAmount: "1000000000000000000", fromAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }) { bridgeProvider } }`,
    ]) {
      const res = await app.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        payload: { query },
      });
      const body = res.json();
      expect(body.data ?? null, query).toBeNull();
      expect(body.errors?.[0]?.extensions?.code, query).toBe('UPSTREAM_UNAVAILABLE');
    }
    expect((await get(apiKey, '/partners/stats')).json()).toMatchObject({ creditBalance: 10, creditUsage: 0 });
  });

  it("a sandbox transfer's status is not a live partner's business", async () => {
    const sandbox = await app.partner(10, 'Sandbox Partner', { sandbox: true });
    const live = await app.partner(10);
    const [route] = (await get(sandbox.apiKey, `/partners/bridge/quote?${quote}`)).json().routes;
    const hash = `0x${'4d'.repeat(32)}`;
    const linked = await get(sandbox.apiKey, `/partners/bridge/status?txHash=${hash}&routeId=${route.id}`);
    expect(linked.json()).toMatchObject({ status: 'PENDING', bridge: 'sandbox' });
    // The live partner is served by the (absent) upstreams only: a free 503, and `sandbox` is no bridge of its.
    expect((await get(live.apiKey, `/partners/bridge/status?txHash=${hash}`)).statusCode).toBe(503);
    const hinted = await get(live.apiKey, `/partners/bridge/status?txHash=${hash}&bridge=sandbox`);
    expect(hinted.statusCode).toBe(400);
    expect(hinted.json().message).toMatch(/bridge must be one of lifi, across/);
    expect((await get(live.apiKey, '/partners/stats')).json()).toMatchObject({ creditBalance: 10, creditUsage: 0 });
  });
});
