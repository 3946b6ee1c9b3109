import { readFileSync } from 'node:fs';
import { decodeFunctionData, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { isUpstreamClientError, type UpstreamHttpError } from '../../../../platform/upstream/index.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import {
  expectUnavailable,
  FIXTURE_WALLET,
  failure,
  standinPerTest,
  standinProviderOptions,
  USDC_ARB,
  USDC_BASE,
  USDC_REQUEST,
} from '../provider.test-helper.js';
import type { BridgeProvider, QuoteRequest } from '../types.js';
import { SPOKE_POOL_DEPOSIT_V3_ABI } from './contracts.js';
import { type AcrossProviderOptions, createAcrossProvider } from './provider.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/across/${name}`, import.meta.url), 'utf8'));

const DEPOSITOR = FIXTURE_WALLET;
const RECIPIENT = '0x718648C8c531F91b528A7757dD2bE813c3940608';
const NATIVE = '0x0000000000000000000000000000000000000000';
const ARB_SPOKE_POOL = '0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A';
const MAINNET_SPOKE_POOL = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';

const upstream = standinPerTest();

function provider(overrides: Partial<AcrossProviderOptions> = {}): BridgeProvider {
  return createAcrossProvider({ ...standinProviderOptions(upstream, '/api'), ...overrides });
}

function serveMetadata(): void {
  upstream.reply('/api/swap/tokens', (req) => ({ json: fixture(`swap-tokens-${req.query.chainId}.json`) }));
}

const usdcRequest: QuoteRequest = { ...USDC_REQUEST, toAddress: RECIPIENT };

const ethRequest: QuoteRequest = {
  fromChain: 'eip155:1',
  toChain: 'eip155:8453',
  fromToken: NATIVE,
  toToken: NATIVE,
  fromAmount: 10n ** 18n,
  fromAddress: DEPOSITOR,
  toAddress: DEPOSITOR,
  slippage: 0.03,
  order: 'CHEAPEST',
  allowBridges: [],
  denyBridges: [],
  maxRoutes: 5,
};

function decodeDeposit(data: string) {
  const decoded = decodeFunctionData({ abi: SPOKE_POOL_DEPOSIT_V3_ABI, data: data as Hex });
  expect(decoded.functionName).toBe('depositV3');
  return decoded.args;
}

describe('createAcrossProvider', () => {
  it('is disabled without configuration, says how to enable it, and never calls the upstream', async () => {
    const across = createAcrossProvider({ enabled: false, baseUrl: upstream.url });
    expect(across.name).toBe('across');
    expect(across.status.enabled === false && across.status.reason).toMatch(/ACROSS_ENABLED=true or ACROSS_API_URL/);
    await expect(across.tokens('eip155:1')).rejects.toBeInstanceOf(UpstreamError);
    await expect(across.transferStatus({ txHash: '0x1' })).rejects.toBeInstanceOf(UpstreamError);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('chains: the chains of the available routes that cipgate knows, described from the registry', async () => {
    upstream.reply('/api/available-routes', { json: fixture('available-routes.json') });
    const chains = await provider().chains();
    expect(chains.map((c) => c.caip2Id)).toEqual(['eip155:1', 'eip155:10', 'eip155:8453', 'eip155:42161']);
    expect(chains[0]).toEqual({
      caip2Id: 'eip155:1',
      name: 'Ethereum',
      nativeToken: 'ETH',
      logoURI: 'https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/chains/ethereum.svg',
      isBridgeSupported: true,
    });
  });

  it('tokens: route tokens of the chain plus the native token, with Across metadata; unknown decimals are left out', async () => {
    upstream.reply('/api/available-routes', { json: fixture('available-routes.json') });
    serveMetadata();
    const tokens = await provider().tokens('eip155:42161');
    expect(upstream.requests('/api/swap/tokens')[0]?.query).toEqual({ chainId: '42161' });
    expect(tokens).toEqual([
      {
        address: USDC_ARB,
        symbol: 'USDC',
        name: 'USD Coin',
        decimals: 6,
        logoURI: 'https://raw.githubusercontent.com/across-protocol/frontend/master/src/assets/token-logos/usdc.svg',
        priceUSD: '0.999851',
      },
      {
        address: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
        symbol: 'WETH',
        name: 'Wrapped Ether',
        decimals: 18,
        logoURI: 'https://raw.githubusercontent.com/across-protocol/frontend/master/src/assets/token-logos/weth.svg',
        priceUSD: '3166.21',
      },
      {
        address: NATIVE,
        symbol: 'ETH',
        name: 'Ether',
        decimals: 18,
        logoURI: 'https://raw.githubusercontent.com/across-protocol/frontend/master/src/assets/token-logos/eth.svg',
        priceUSD: '3166.21',
      },
    ]);
  });

  it('tokens: non-EVM chains give [] without a call', async () => {
    expect(await provider().tokens('solana:mainnet-beta')).toEqual([]);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote: one route from /swap/approval, with its swapTx, spender and approval passed through', async () => {
    const answer = fixture('swap-approval-usdc-arbitrum-base.json') as {
      swapTx: { data: string };
      approvalTxns: { to: string; data: string }[];
    };
    upstream.reply('/api/swap/approval', { json: answer });
    serveMetadata();
    const routes = await provider({ apiKey: 'k-123', integratorId: '0x00ab' }).quote({
      ...usdcRequest,
      toAddress: DEPOSITOR,
    });
    const request = upstream.requests('/api/swap/approval')[0];
    expect(request?.query).toEqual({
      tradeType: 'exactInput',
      amount: '100000000',
      inputToken: USDC_ARB,
      outputToken: USDC_BASE,
      originChainId: '42161',
      destinationChainId: '8453',
      depositor: DEPOSITOR,
      recipient: DEPOSITOR,
      slippage: '0.005',
      integratorId: '0x00ab',
    });
    expect(request?.headers.authorization).toBe('Bearer k-123');
    expect(routes).toHaveLength(1);
    const [route] = routes;
    expect(route).toMatchObject({
      fromChain: 'eip155:42161',
      toChain: 'eip155:8453',
      fromToken: USDC_ARB,
      toToken: USDC_BASE,
      fromAmount: '100000000',
      toAmount: '99880000',
      toAmountMin: '99880000',
      gasCostUSD: '0.0066',
      feeCostUSD: '0.12',
      fromAmountUSD: '99.9851',
      bridgeProvider: 'across',
      aggregator: 'across',
      estimatedTimeSeconds: 2,
      approvalAddress: ARB_SPOKE_POOL,
      approvalTransaction: { from: DEPOSITOR, to: USDC_ARB, data: answer.approvalTxns[0]?.data, chainId: 42161 },
    });
    expect(route?.transactionData).toEqual({
      from: DEPOSITOR,
      to: ARB_SPOKE_POOL,
      data: answer.swapTx.data,
      value: '0',
      gasLimit: '0',
      gasPrice: '0',
      chainId: 42161,
    });
    expect(route?.tracking).toMatchObject({ quoteId: 'a1c3e5f7-across-quote', allowanceSufficient: false });
  });

  it('quote: native ETH needs no approval; value, gas and fee figures come from the answer', async () => {
    upstream.reply('/api/swap/approval', { json: fixture('swap-approval-eth-mainnet-base.json') });
    serveMetadata();
    const [route] = await provider().quote(ethRequest);
    const query = upstream.requests('/api/swap/approval')[0]?.query;
    expect(query).toMatchObject({ inputToken: NATIVE, outputToken: NATIVE, amount: '1000000000000000000' });
    expect(query?.integratorId).toBeUndefined();
    expect(upstream.requests('/api/swap/approval')[0]?.headers.authorization).toBeUndefined();
    expect(route).toMatchObject({
      fromToken: NATIVE,
      toToken: NATIVE,
      toAmount: '999487700000000000',
      toAmountMin: '969503069000000000',
      feeCostUSD: '1.622049',
      gasCostUSD: '5.6992',
      estimatedTimeSeconds: 24,
    });
    expect(route?.approvalAddress).toBeUndefined();
    expect(route?.approvalTransaction).toBeUndefined();
    expect(route?.transactionData).toMatchObject({
      to: MAINNET_SPOKE_POOL,
      value: '1000000000000000000',
      gasLimit: '98000',
      gasPrice: '12000000000',
      chainId: 1,
    });
    expect(decodeDeposit(route?.transactionData.data ?? '')[5]).toBe(999487700000000000n);
  });

  it('quote: a token needing two approvals (reset, then approve) is not offered', async () => {
    const answer = fixture('swap-approval-usdc-arbitrum-base.json') as { approvalTxns: unknown[] };
    upstream.reply('/api/swap/approval', {
      json: { ...answer, approvalTxns: [answer.approvalTxns[0], answer.approvalTxns[0]] },
    });
    serveMetadata();
    expect(await provider().quote(usdcRequest)).toEqual([]);
  });

  it('quote: still answers when token metadata is unavailable, with USD values of "0"', async () => {
    upstream.reply('/api/swap/approval', { json: fixture('swap-approval-usdc-arbitrum-base.json') });
    upstream.reply('/api/swap/tokens', { status: 404, json: { message: 'Not found' } });
    const [route] = await provider().quote(usdcRequest);
    expect(route).toMatchObject({ toAmount: '99880000', fromAmountUSD: '0', toAmountUSD: '0' });
  });

  it('quote: reuses token metadata within its TTL', async () => {
    upstream.reply('/api/swap/approval', { json: fixture('swap-approval-usdc-arbitrum-base.json') });
    serveMetadata();
    const across = provider();
    await across.quote(usdcRequest);
    await across.quote(usdcRequest);
    expect(upstream.count('/api/swap/approval')).toBe(2);
    expect(upstream.count('/api/swap/tokens')).toBe(2); // one per chain, not per quote
  });

  it('quote: Solana/Bitcoin requests and non-EVM addresses give [] without a call', async () => {
    const across = provider();
    expect(await across.quote({ ...usdcRequest, toChain: 'solana:mainnet-beta' })).toEqual([]);
    expect(await across.quote({ ...usdcRequest, fromChain: 'bip122:000000000019d6689c085ae165831e93' })).toEqual([]);
    expect(await across.quote({ ...usdcRequest, toAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' })).toEqual(
      [],
    );
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote: 404, ROUTE_NOT_ENABLED, AMOUNT_TOO_LOW and an answer without swapTx are "no route"', async () => {
    serveMetadata();
    const noTx = { ...(fixture('swap-approval-usdc-arbitrum-base.json') as object), swapTx: undefined };
    upstream.sequence('/api/swap/approval', [
      { status: 404, json: { type: 'AcrossApiError', status: 404, message: 'Not found' } },
      { status: 400, json: fixture('swap-approval-route-disabled-400.json') },
      { status: 400, json: fixture('swap-approval-amount-too-low-400.json') },
      { json: noTx },
    ]);
    const across = provider();
    for (let i = 0; i < 4; i++) expect(await across.quote(usdcRequest)).toEqual([]);
    expect(upstream.count('/api/swap/approval')).toBe(4);
  });

  it('quote: INVALID_PARAM is a client error with Across message', async () => {
    serveMetadata();
    upstream.reply('/api/swap/approval', { status: 400, json: fixture('swap-approval-invalid-param-400.json') });
    const err = await failure(provider().quote(usdcRequest));
    expect(isUpstreamClientError(err)).toBe(true);
    expect((err as UpstreamHttpError).upstreamMessage).toBe(
      "Invalid parameter at path 'recipient'. Expected type 'string'",
    );
  });

  it('quote: retries a 5xx and returns the later answer', async () => {
    serveMetadata();
    upstream.sequence('/api/swap/approval', [
      { status: 500, json: { type: 'AcrossApiError', code: 'UPSTREAM_RPC_ERROR', status: 500, message: 'rpc' } },
      { json: fixture('swap-approval-usdc-arbitrum-base.json') },
    ]);
    expect(await provider().quote(usdcRequest)).toHaveLength(1);
    expect(upstream.count('/api/swap/approval')).toBe(2);
  });

  it('quote: a hanging upstream ends in UpstreamUnavailableError(timeout)', async () => {
    serveMetadata();
    upstream.reply('/api/swap/approval', { hang: true });
    await expectUnavailable(provider().quote(usdcRequest), 'timeout');
  });

  it('opens the circuit after repeated failures and then fails fast', async () => {
    upstream.reply('/api/available-routes', { status: 502 });
    const across = provider();
    for (let i = 0; i < 3; i++) await failure(across.chains());
    const calls = upstream.count('/api/available-routes');
    expect(calls).toBe(6);
    await expectUnavailable(across.chains(), 'circuit_open');
    expect(upstream.count('/api/available-routes')).toBe(calls);
  });

  describe('transferStatus', () => {
    const deposit = '0x0e44727151684ef4cfe7744aad88007cf55b155a64f5f9047fb9d2fa53780967';
    const fill = '0x0e7b85f1c49c4c89f3b381f12a24d6838be16a41021ab16645bae9dcd1278238';

    it('filled → DONE with the deposit and fill transactions', async () => {
      upstream.reply('/api/deposit/status', { json: fixture('deposit-status-filled.json') });
      const answer = await provider().transferStatus({ txHash: deposit, fromChain: 'eip155:8453' });
      expect(upstream.requests('/api/deposit/status')[0]?.query).toEqual({ depositTxnRef: deposit });
      expect(answer).toEqual({
        status: 'DONE',
        substatus: 'FILLED',
        bridge: 'across',
        message: 'Filled on the destination chain',
        fromTx: {
          txHash: deposit,
          txLink: `https://basescan.org/tx/${deposit}`,
          chainId: 8453,
          gasUsed: '0',
          gasPrice: '0',
          timestamp: 0,
        },
        toTx: {
          txHash: fill,
          txLink: `https://polygonscan.com/tx/${fill}`,
          chainId: 137,
          gasUsed: '0',
          gasPrice: '0',
          timestamp: 0,
        },
      });
    });

    it('pending → PENDING, expired and refunded → FAILED', async () => {
      upstream.sequence('/api/deposit/status', [
        { json: fixture('deposit-status-pending.json') },
        { json: fixture('deposit-status-expired.json') },
        { json: fixture('deposit-status-refunded.json') },
      ]);
      const across = provider();
      const pending = await across.transferStatus({ txHash: deposit });
      expect(pending).toMatchObject({ status: 'PENDING', substatus: 'PENDING' });
      expect(pending?.toTx).toBeUndefined();
      expect(await across.transferStatus({ txHash: deposit })).toMatchObject({
        status: 'FAILED',
        substatus: 'EXPIRED',
      });
      expect(await across.transferStatus({ txHash: deposit })).toMatchObject({
        status: 'FAILED',
        substatus: 'REFUNDED',
      });
    });

    it('404 means Across does not know the deposit', async () => {
      upstream.reply('/api/deposit/status', { status: 404, json: fixture('deposit-status-not-found-404.json') });
      expect(await provider().transferStatus({ txHash: deposit })).toBeNull();
    });

    it('a non-EVM source chain is not asked about', async () => {
      expect(await provider().transferStatus({ txHash: 'abc', fromChain: 'solana:mainnet-beta' })).toBeNull();
      expect(upstream.requests()).toHaveLength(0);
    });
  });
});
