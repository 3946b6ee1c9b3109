/**
 * Squid v2 against a loopback stand-in replaying test/fixtures/squid (shapes from
 * `@0xsquid/squid-types` 0.1.253 and docs.squidrouter.com; see its README).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isUpstreamClientError } from '../../../../platform/upstream/index.js';
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
import type { BridgeProvider } from '../types.js';
import { createSquidProvider, type SquidProviderOptions } from './provider.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/squid/${name}`, import.meta.url), 'utf8'));

const ROUTER = '0xce16F69375520ab01377ce7B88f5BA8C48F8D666';
const SQUID_NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const upstream = standinPerTest();

function provider(overrides: Partial<SquidProviderOptions> = {}): BridgeProvider {
  return createSquidProvider({ ...standinProviderOptions(upstream, ''), integratorId: 'cipgate-test', ...overrides });
}

type RouteFixture = { route: { transactionRequest: Record<string, unknown>; estimate: Record<string, unknown> } };

describe('createSquidProvider', () => {
  it('is disabled without an integrator id, says so, and never calls the upstream', async () => {
    const squid = createSquidProvider({ enabled: true, baseUrl: upstream.url });
    expect(squid.name).toBe('squid');
    expect(squid.status.enabled === false && squid.status.reason).toMatch(/SQUID_INTEGRATOR_ID is not set/);
    await expect(squid.quote(USDC_REQUEST)).rejects.toBeInstanceOf(UpstreamError);
    const off = createSquidProvider({ enabled: false, integratorId: 'x', baseUrl: upstream.url });
    expect(off.status.enabled === false && off.status.reason).toMatch(/SQUID_ENABLED=false/);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('chains: the EVM chains and Solana from /v2/sdk-info, as CAIP-2; other families left out', async () => {
    upstream.reply('/v2/sdk-info', { json: fixture('sdk-info.json') });
    const chains = await provider().chains();
    expect(chains.map((c) => c.caip2Id)).toEqual(['eip155:42161', 'eip155:8453', 'solana:mainnet-beta']);
    expect(chains[0]).toMatchObject({ name: 'Arbitrum', nativeToken: 'ETH', isBridgeSupported: true });
    expect(upstream.requests('/v2/sdk-info')[0]?.headers['x-integrator-id']).toBe('cipgate-test');
  });

  it("tokens: the chain's tokens, 0xEeee… as cipgate's native address, prices as decimals", async () => {
    upstream.reply('/v2/sdk-info', { json: fixture('sdk-info.json') });
    const tokens = await provider().tokens('eip155:42161');
    expect(tokens.map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'ARB']);
    expect(tokens[0]).toMatchObject({ address: '0x0000000000000000000000000000000000000000', priceUSD: '3166.21' });
    expect(tokens[2]).not.toHaveProperty('priceUSD');
    expect(await provider().tokens('move-mvmt:126')).toEqual([]);
  });

  it('quote: sends the RouteRequest (slippage in percent) and maps estimate + transactionRequest', async () => {
    upstream.reply('/v2/route', { json: fixture('route-usdc-arbitrum-base.json') });
    const routes = await provider().quote(USDC_REQUEST);
    const [req] = upstream.requests('/v2/route');
    expect(req?.headers['x-integrator-id']).toBe('cipgate-test');
    expect(req?.body).toEqual({
      fromChain: '42161',
      toChain: '8453',
      fromToken: USDC_ARB,
      toToken: USDC_BASE,
      fromAmount: '100000000',
      fromAddress: FIXTURE_WALLET,
      toAddress: FIXTURE_WALLET,
      slippage: 0.5,
      quoteOnly: false,
    });
    const tx = (fixture('route-usdc-arbitrum-base.json') as RouteFixture).route.transactionRequest;
    expect(routes).toEqual([
      {
        fromChain: 'eip155:42161',
        toChain: 'eip155:8453',
        fromToken: USDC_ARB,
        toToken: USDC_BASE,
        fromAmount: '100000000',
        toAmount: '99812000',
        toAmountMin: '99313000',
        gasCostUSD: '0.0106',
        feeCostUSD: '0.1846',
        fromAmountUSD: '99.98',
        toAmountUSD: '99.79',
        bridgeProvider: 'axelar',
        aggregator: 'squid',
        estimatedTimeSeconds: 20,
        transactionData: {
          from: FIXTURE_WALLET,
          to: ROUTER,
          data: tx.data,
          value: '52000000000000',
          gasLimit: '420000',
          gasPrice: '10000000',
          chainId: 42161,
        },
        approvalAddress: ROUTER,
        expiresAt: 4102444800,
        tracking: {
          fromChainId: '42161',
          toChainId: '8453',
          quoteId: '6f1d8a40c3e24f0a9d3f2a5b7c8e9012',
          requestId: '2f7c9e1a-5d4b-4c3a-8e2f-1b0a9c8d7e6f',
        },
      },
    ]);
  });

  it('quote: native ETH goes to Squid as 0xEeee…; Solana is named solana-mainnet-beta', async () => {
    upstream.reply('/v2/route', { json: fixture('route-usdc-arbitrum-base.json') });
    await provider().quote({
      ...USDC_REQUEST,
      fromToken: '0x0000000000000000000000000000000000000000',
      toChain: 'solana:mainnet-beta',
      toToken: '11111111111111111111111111111111',
      toAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      slippage: 0.03,
    });
    expect(upstream.requests('/v2/route')[0]?.body).toMatchObject({
      fromToken: SQUID_NATIVE,
      toChain: 'solana-mainnet-beta',
      toToken: SQUID_NATIVE,
      slippage: 3,
    });
  });

  it('quote: a transaction already past its expiry is no route', async () => {
    const route = structuredClone(fixture('route-usdc-arbitrum-base.json')) as RouteFixture;
    route.route.transactionRequest.expiry = String(Math.floor(Date.now() / 1000) - 5);
    upstream.reply('/v2/route', { json: route });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
  });

  it('quote: a deposit-address route is not a transaction the caller signs: no route', async () => {
    upstream.reply('/v2/route', { json: fixture('route-deposit-address.json') });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
  });

  it('quote: Solana or unknown sources give [] without a call', async () => {
    expect(
      await provider().quote({ ...USDC_REQUEST, fromChain: 'solana:mainnet-beta', fromToken: '1'.repeat(32) }),
    ).toEqual([]);
    expect(await provider().quote({ ...USDC_REQUEST, toChain: 'move-mvmt:126' })).toEqual([]);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote: 404 is no route; another 4xx is the upstream refusing; an answer without estimate is an UpstreamError', async () => {
    upstream.reply('/v2/route', { status: 404, json: { message: 'No route found' } });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
    upstream.reply('/v2/route', { status: 400, json: { message: 'fromAmount is too low', statusCode: '400' } });
    expect(isUpstreamClientError(await failure(provider().quote(USDC_REQUEST)))).toBe(true);
    upstream.reply('/v2/route', { json: { route: {} } });
    expect(await failure(provider().quote(USDC_REQUEST))).toBeInstanceOf(UpstreamError);
  });

  it('quote: a hanging upstream ends in UpstreamUnavailableError(timeout)', async () => {
    upstream.reply('/v2/route', { hang: true });
    const err = await expectUnavailable(provider().quote(USDC_REQUEST), 'timeout');
    expect(err.provider).toBe('squid');
  });

  describe('transferStatus', () => {
    const txHash = '0xe1ffdcf09d5aa92a2d89b1b39db3f8cadf09428a296cce0d5e387595ac83d08f';
    const tracking = { fromChainId: '42161', toChainId: '8453', quoteId: 'q-1', requestId: 'r-1' };
    const withState = (state: string) => ({
      ...(fixture('status-success.json') as object),
      squidTransactionStatus: state,
    });

    it('success: DONE with both transactions; sends quoteId and the chain ids Squid asks for', async () => {
      upstream.reply('/v2/status', { json: fixture('status-success.json') });
      const answer = await provider().transferStatus({ txHash, tracking });
      expect(upstream.requests('/v2/status')[0]?.query).toEqual({
        transactionId: txHash,
        fromChainId: '42161',
        toChainId: '8453',
        quoteId: 'q-1',
        requestId: 'r-1',
      });
      expect(answer).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', bridge: 'squid' });
      expect(answer?.fromTx).toMatchObject({ txHash, chainId: 42161, txLink: `https://arbiscan.io/tx/${txHash}` });
      expect(answer?.toTx).toMatchObject({ chainId: 8453 });
    });

    it.each([
      ['success', 'DONE', 'COMPLETED'],
      ['ongoing', 'PENDING', 'ONGOING'],
      ['needs_gas', 'PENDING', 'NEEDS_GAS'],
      ['partial_success', 'PENDING', 'PARTIAL_SUCCESS'],
      ['not_found', 'NOT_FOUND', 'NOT_FOUND'],
      ['failed_on_destination', 'FAILED', 'FAILED_ON_DESTINATION'],
      ['refunded', 'FAILED', 'REFUNDED'],
      ['refund', 'FAILED', 'REFUNDED'],
      ['some_new_state', 'PENDING', 'SOME_NEW_STATE'],
    ])('squidTransactionStatus %s → %s (%s)', async (state, status, substatus) => {
      upstream.reply('/v2/status', { json: withState(state) });
      const answer = await provider().transferStatus({ txHash, fromChain: 'eip155:42161', toChain: 'eip155:8453' });
      expect(answer).toMatchObject({ status, substatus, bridge: 'squid' });
      expect(upstream.requests('/v2/status')[0]?.query).toEqual({
        transactionId: txHash,
        fromChainId: '42161',
        toChainId: '8453',
      });
    });

    it('not_found or 404: PENDING when quoted through us (tracking), NOT_FOUND / unknown otherwise', async () => {
      upstream.reply('/v2/status', { json: withState('not_found') });
      expect(await provider().transferStatus({ txHash, tracking })).toMatchObject({
        status: 'PENDING',
        substatus: 'NOT_FOUND',
      });
      upstream.reply('/v2/status', { status: 404, json: { message: 'Transaction not found' } });
      expect(await provider().transferStatus({ txHash, tracking })).toMatchObject({ status: 'PENDING' });
      expect(await provider().transferStatus({ txHash })).toBeNull();
    });

    it('an answer without squidTransactionStatus is an UpstreamError; 5xx is retried then fails', async () => {
      upstream.reply('/v2/status', { json: { id: txHash } });
      expect(await failure(provider().transferStatus({ txHash }))).toBeInstanceOf(UpstreamError);
      upstream.reply('/v2/status', { status: 502, body: 'bad gateway' });
      await failure(provider().transferStatus({ txHash }));
      expect(upstream.count('/v2/status')).toBe(3);
    });
  });
});
