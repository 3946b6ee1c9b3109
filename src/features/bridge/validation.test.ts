import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { NATIVE_EVM, NATIVE_SOLANA } from '../../platform/chains/registry.js';
import { ETH_TO_BASE, SANDBOX_WALLET } from './bridge.test-helper.js';

const WALLET = SANDBOX_WALLET;
const SOL_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const base = ETH_TO_BASE;
const TX = `0x${'ab'.repeat(32)}`;

describe('bridge input validation: every rule is a free 400 naming the parameter', () => {
  let app: TestApp;
  let apiKey: string;
  beforeAll(async () => {
    app = await startTestApp();
    // A sandbox partner: with no upstream configured the sandbox is what serves it.
    ({ apiKey } = await app.partner(1000, 'Sandbox Partner', { sandbox: true }));
  });
  afterAll(() => app.stop());

  const get = (url: string) => app.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const balance = async () => (await get('/partners/stats')).json().creditBalance as number;
  const quote = (params: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
    return get(`/partners/bridge/quote?${q}`);
  };

  async function expectFree400(res: Awaited<ReturnType<typeof get>>, param: string, before: number) {
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    expect(body.message).toContain(param);
    expect(await balance()).toBe(before);
  }

  const quoteCases: [string, string, Record<string, string | undefined>][] = [
    ['fromChain', 'is not CAIP-2', { fromChain: 'ethereum' }],
    ['fromChain', 'is a wildcard', { fromChain: 'eip155:*' }],
    ['toChain', 'is not CAIP-2', { toChain: 'eip155:' }],
    ['fromChain', 'is not a supported chain', { fromChain: 'eip155:999999' }],
    ['toChain', 'is a known chain the bridge does not serve', { toChain: 'move-mvmt:126' }],
    ['fromToken', 'is not hex', { fromToken: '0xZZ00000000000000000000000000000000000000' }],
    ['fromToken', 'is 19 bytes', { fromToken: '0x00000000000000000000000000000000000000' }],
    ['fromToken', 'has a wrong EIP-55 checksum', { fromToken: '0xa0B86991c6218b36c1d19D4a2e9Eb0cE3606eB48' }],
    ['fromToken', 'is a Solana address on an EVM chain', { fromToken: NATIVE_SOLANA }],
    ['toToken', 'is an EVM address on Solana', { toChain: 'solana:mainnet-beta', toAddress: SOL_WALLET }],
    ['fromAddress', 'is not an EVM address', { fromAddress: '0x1234' }],
    [
      'toAddress',
      'is not base58 of 32 bytes',
      { toChain: 'solana:mainnet-beta', toToken: USDC_SOL, toAddress: '0OIl' },
    ],
    [
      'toAddress',
      'is an EVM address on Solana',
      { toChain: 'solana:mainnet-beta', toToken: USDC_SOL, toAddress: WALLET },
    ],
    ['toAddress', 'is missing between address families', { toChain: 'solana:mainnet-beta', toToken: USDC_SOL }],
    ['fromAmount', 'is zero', { fromAmount: '0' }],
    ['fromAmount', 'is negative', { fromAmount: '-5' }],
    ['fromAmount', 'is fractional', { fromAmount: '1.5' }],
    ['fromAmount', 'is hex', { fromAmount: '0x10' }],
    ['fromAmount', 'exceeds uint256', { fromAmount: (2n ** 256n).toString() }],
    ['slippage', 'is zero', { slippage: '0' }],
    ['slippage', 'is negative', { slippage: '-0.01' }],
    ['slippage', 'is above 0.5', { slippage: '0.51' }],
    ['slippage', 'is not a number', { slippage: 'lots' }],
    ['fromAddress', 'is missing', { fromAddress: undefined }],
    ['fromAmount', 'is missing', { fromAmount: undefined }],
    ['order', 'is not CHEAPEST or FASTEST', { order: 'RECOMMENDED' }],
    ['order', 'is too long for the schema', { order: 'F'.repeat(21) }],
    ['allowBridges', 'has an empty name', { allowBridges: 'across,' }],
    ['allowBridges', 'has a name with spaces', { allowBridges: 'hop protocol' }],
    ['denyBridges', 'has a name with a slash', { denyBridges: '../across' }],
    [
      'denyBridges',
      'names more than 30 bridges',
      { denyBridges: Array.from({ length: 31 }, (_, i) => `b${i}`).join(',') },
    ],
    ['allowBridges', 'shares a bridge with denyBridges', { allowBridges: 'across', denyBridges: 'Across' }],
    ['maxRoutes', 'is zero', { maxRoutes: '0' }],
    ['maxRoutes', 'is above 20', { maxRoutes: '21' }],
    ['maxRoutes', 'is fractional', { maxRoutes: '1.5' }],
    ['maxRoutes', 'is not a number', { maxRoutes: 'all' }],
  ];

  it.each(quoteCases)('quote: %s %s', async (param, _why, overrides) => {
    const before = await balance();
    await expectFree400(await quote({ ...base, ...overrides }), param, before);
  });

  it('quote: the boundaries themselves are accepted (slippage 0.5, uint256 max, native Solana, default toAddress)', async () => {
    const before = await balance();
    expect((await quote({ ...base, slippage: '0.5' })).statusCode).toBe(200);
    const tuned = await quote({ ...base, order: 'fastest', allowBridges: 'sandbox', maxRoutes: '20' });
    expect(tuned.statusCode, tuned.body).toBe(200);
    // Every route excluded by the lists: no route, a free 404 that says why.
    const none = await quote({ ...base, denyBridges: 'sandbox' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/excluded by allowBridges\/denyBridges/);
    // Within uint256 passes validation; the sandbox then has no route for such an amount or prices it.
    expect([200, 404]).toContain((await quote({ ...base, fromAmount: (2n ** 256n - 1n).toString() })).statusCode);
    const toSol = await quote({
      ...base,
      toChain: 'solana:mainnet-beta',
      toToken: NATIVE_SOLANA,
      toAddress: SOL_WALLET,
    });
    expect(toSol.statusCode, toSol.body).toBe(200);
    const lower = await quote({ ...base, fromToken: NATIVE_EVM, fromAddress: WALLET.toLowerCase() });
    expect(lower.statusCode).toBe(200);
    const [row] = await app.services.db.query<{ request: string }>('select request from bridge_route where id = ?', [
      lower.json().routes[0].id,
    ]);
    expect(JSON.parse(row?.request ?? '{}')).toMatchObject({ toAddress: WALLET.toLowerCase(), slippage: 0.03 });
    expect(await balance()).toBeLessThan(before);
  });

  it.each([
    ['caip2Id', 'is missing', ''],
    ['caip2Id', 'is not CAIP-2', '?caip2Id=solana'],
    ['caip2Id', 'is not a supported chain', '?caip2Id=eip155:424242'],
  ])('tokens: %s %s', async (param, _why, query) => {
    const before = await balance();
    await expectFree400(await get(`/partners/bridge/tokens${query}`), param, before);
  });

  it.each([
    ['txHash', 'is missing', ''],
    ['txHash', 'is not a hash', '?txHash=hello'],
    ['txHash', 'is 31 bytes', `?txHash=0x${'ab'.repeat(31)}`],
    ['bridge', 'is not a provider or bridge name', `?txHash=${TX}&bridge=${encodeURIComponent('worm hole')}`],
    ['bridge', 'names a provider of the live world', `?txHash=${TX}&bridge=lifi`],
    ['routeId', 'is not a route id', `?txHash=${TX}&routeId=route-1`],
  ])('status: %s %s', async (param, _why, query) => {
    const before = await balance();
    await expectFree400(await get(`/partners/bridge/status${query}`), param, before);
  });

  it('GraphQL gives the same rules as BAD_USER_INPUT errors, free', async () => {
    const before = await balance();
    const res = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      payload: {
        query: 'query Q($input: BridgeQuoteInput!) { bridgeQuote(input: $input) { id } }',
        variables: { input: { ...base, slippage: 0.75 } },
      },
    });
    const body = res.json();
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors[0].message).toMatch(/^slippage/);
    expect(await balance()).toBe(before);
  });
});
