import { readFileSync } from 'node:fs';
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
import type { BridgeProvider } from '../types.js';
import { caip2ToLifiChain, lifiChainToCaip2 } from './chains.js';
import { createLifiProvider, type LifiProviderOptions } from './provider.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/lifi/${name}`, import.meta.url), 'utf8'));

const WALLET = FIXTURE_WALLET;
const DIAMOND = '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE';

const upstream = standinPerTest();

function provider(overrides: Partial<LifiProviderOptions> = {}): BridgeProvider {
  return createLifiProvider({ ...standinProviderOptions(upstream, '/v1'), ...overrides });
}

const usdcRequest = USDC_REQUEST;

/**
 * LI.FI's two-call flow for a documented step: /advanced/routes lists it without its transaction,
 * /advanced/stepTransaction gives it back with `transactionRequest`.
 */
function replyStep(name: string): void {
  const step = fixture(name) as Record<string, unknown>;
  const { transactionRequest: _tx, ...bare } = step;
  upstream.reply('/v1/advanced/routes', { json: { routes: [{ id: 'r1', steps: [bare] }] } });
  upstream.reply('/v1/advanced/stepTransaction', { json: step });
}

describe('LI.FI chain ids', () => {
  it('maps EVM, Solana and Bitcoin both ways and refuses the rest', () => {
    expect(lifiChainToCaip2(137, 'EVM')).toBe('eip155:137');
    expect(lifiChainToCaip2(1151111081099710, 'SVM')).toBe('solana:mainnet-beta');
    expect(lifiChainToCaip2(20000000000001, 'UTXO')).toBe('bip122:000000000019d6689c085ae165831e93');
    expect(lifiChainToCaip2(9270000000000000, 'MVM')).toBeUndefined();
    expect(lifiChainToCaip2(9270000000000000)).toBeUndefined();
    expect(caip2ToLifiChain('eip155:43114')).toBe(43114);
    expect(caip2ToLifiChain('solana:mainnet-beta')).toBe(1151111081099710);
    expect(caip2ToLifiChain('bip122:000000000019d6689c085ae165831e93')).toBe(20000000000001);
    expect(caip2ToLifiChain('move-mvmt:126')).toBeUndefined();
    expect(caip2ToLifiChain('eip155:0x1')).toBeUndefined();
  });
});

describe('createLifiProvider', () => {
  it('is disabled without configuration, says how to enable it, and never calls the upstream', async () => {
    const lifi = createLifiProvider({ enabled: false, baseUrl: upstream.url });
    expect(lifi.name).toBe('lifi');
    expect(lifi.status.enabled).toBe(false);
    expect(lifi.status.enabled === false && lifi.status.reason).toMatch(/LIFI_ENABLED=true or LIFI_API_URL/);
    await expect(lifi.chains()).rejects.toBeInstanceOf(UpstreamError);
    await expect(lifi.quote(usdcRequest)).rejects.toBeInstanceOf(UpstreamError);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('chains: keeps mainnet EVM/SVM/UTXO chains as CAIP-2 and asks only for those families', async () => {
    upstream.reply('/v1/chains', { json: fixture('chains.json') });
    const chains = await provider().chains();
    expect(chains.map((c) => c.caip2Id)).toEqual([
      'eip155:1',
      'eip155:137',
      'eip155:42161',
      'eip155:8453',
      'solana:mainnet-beta',
      'bip122:000000000019d6689c085ae165831e93',
    ]);
    expect(chains[1]).toEqual({
      caip2Id: 'eip155:137',
      name: 'Polygon',
      nativeToken: 'POL',
      logoURI: 'https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/chains/polygon.svg',
      isBridgeSupported: true,
    });
    expect(upstream.requests('/v1/chains')[0]?.query).toEqual({ chainTypes: 'EVM,SVM,UTXO' });
  });

  it('tokens: maps the chain, sends the API key, keeps prices as decimal strings', async () => {
    upstream.reply('/v1/tokens', { json: fixture('tokens-arbitrum.json') });
    const tokens = await provider({ apiKey: 'secret-key' }).tokens('eip155:42161');
    const [req] = upstream.requests('/v1/tokens');
    expect(req?.query).toEqual({ chains: '42161' });
    expect(req?.headers['x-lifi-api-key']).toBe('secret-key');
    expect(tokens).toHaveLength(6);
    expect(tokens[0]).toEqual({
      address: '0x0000000000000000000000000000000000000000',
      symbol: 'ETH',
      name: 'ETH',
      decimals: 18,
      logoURI:
        'https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png',
      priceUSD: '3166.21',
    });
    expect(tokens.find((t) => t.symbol === 'USDT')?.priceUSD).toBe('1.00074');
    expect(tokens.find((t) => t.symbol === 'ZRO')).toMatchObject({ priceUSD: '0.00000025', logoURI: '' });
    // LI.FI has no price for it: none is invented.
    expect(tokens.find((t) => t.symbol === 'PENDLE')).not.toHaveProperty('priceUSD');
  });

  it('tokens: a chain LI.FI cannot be asked about gives [] without a call', async () => {
    expect(await provider().tokens('move-mvmt:126')).toEqual([]);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote: sends LI.FI chain ids and maps estimate + transactionRequest exactly', async () => {
    replyStep('quote-usdc-arbitrum-base.json');
    const routes = await provider().quote(usdcRequest);
    expect(upstream.requests('/v1/advanced/routes')[0]?.body).toEqual({
      fromChainId: 42161,
      toChainId: 8453,
      fromTokenAddress: USDC_ARB,
      toTokenAddress: USDC_BASE,
      fromAmount: '100000000',
      fromAddress: WALLET,
      toAddress: WALLET,
      options: { slippage: 0.005, order: 'CHEAPEST', allowSwitchChain: false },
    });
    // The step is sent back as LI.FI listed it, to get its transaction.
    expect(upstream.requests('/v1/advanced/stepTransaction')[0]?.body).toMatchObject({ tool: 'across', type: 'lifi' });
    expect(routes).toEqual([
      {
        fromChain: 'eip155:42161',
        toChain: 'eip155:8453',
        fromToken: USDC_ARB,
        toToken: USDC_BASE,
        fromAmount: '100000000',
        toAmount: '99851237',
        toAmountMin: '99601609',
        gasCostUSD: '0.0111',
        feeCostUSD: '0.3011',
        fromAmountUSD: '99.9850',
        toAmountUSD: '99.8363',
        bridgeProvider: 'across',
        aggregator: 'lifi',
        approvalAddress: DIAMOND,
        estimatedTimeSeconds: 53,
        transactionData: {
          from: WALLET,
          to: DIAMOND,
          data: (fixture('quote-usdc-arbitrum-base.json') as { transactionRequest: { data: string } })
            .transactionRequest.data,
          value: '0',
          gasLimit: '437500',
          gasPrice: '10000000',
          chainId: 42161,
        },
        tracking: {
          tool: 'across',
          stepId: '5e2d8b0c-3a8e-4a3b-9c36-0f7d2a7e6a11',
          stepType: 'lifi',
          fromChainId: 42161,
          toChainId: 8453,
        },
      },
    ]);
  });

  it('quote: native ETH keeps the hex value as a decimal string and sums every gas cost', async () => {
    replyStep('quote-eth-mainnet-base.json');
    const [route] = await provider().quote({
      ...usdcRequest,
      fromChain: 'eip155:1',
      toChain: 'eip155:8453',
      fromToken: '0x0000000000000000000000000000000000000000',
      toToken: '0x0000000000000000000000000000000000000000',
      fromAmount: 10n ** 17n,
      slippage: 0.03,
    });
    expect(route?.transactionData).toMatchObject({
      value: '100000000000000000',
      gasLimit: '175000',
      gasPrice: '12000000000',
      chainId: 1,
    });
    expect(route).toMatchObject({ gasCostUSD: '7.0669', feeCostUSD: '0.3623', estimatedTimeSeconds: 7 });
  });

  it('quote: 404 "no quote" is no route, not an error', async () => {
    upstream.reply('/v1/advanced/routes', { status: 404, json: fixture('quote-no-route-404.json') });
    expect(await provider().quote(usdcRequest)).toEqual([]);
    expect(upstream.count('/v1/advanced/routes')).toBe(1);
  });

  it('quote: a NoQuoteError code on another 4xx is no route too', async () => {
    upstream.reply('/v1/advanced/routes', { status: 422, json: { message: 'No available quotes', code: 1002 } });
    expect(await provider().quote(usdcRequest)).toEqual([]);
  });

  it('quote: passes order, bridge lists, integrator and fee; skips multi-step routes; caps at maxRoutes', async () => {
    const step = fixture('quote-usdc-arbitrum-base.json') as Record<string, unknown>;
    const { transactionRequest: _tx, ...bare } = step;
    const single = { steps: [bare] };
    upstream.reply('/v1/advanced/routes', {
      json: { routes: [{ steps: [bare, bare] }, single, single, single] },
    });
    upstream.reply('/v1/advanced/stepTransaction', { json: step });
    const routes = await provider({ integrator: { integrator: 'cipgate', fee: 0.002 } }).quote({
      ...usdcRequest,
      order: 'FASTEST',
      allowBridges: ['across', 'stargateV2'],
      denyBridges: ['hop'],
      maxRoutes: 2,
    });
    expect(upstream.requests('/v1/advanced/routes')[0]?.body).toMatchObject({
      options: {
        order: 'FASTEST',
        bridges: { allow: ['across', 'stargateV2'], deny: ['hop'] },
        integrator: 'cipgate',
        fee: 0.002,
      },
    });
    expect(routes).toHaveLength(2);
    expect(upstream.count('/v1/advanced/stepTransaction')).toBe(2);
  });

  it('quote: every step transaction failing is the upstream failing, not "no route"', async () => {
    replyStep('quote-usdc-arbitrum-base.json');
    upstream.reply('/v1/advanced/stepTransaction', { status: 400, json: { message: 'step expired', code: 1011 } });
    expect(isUpstreamClientError(await failure(provider().quote(usdcRequest)))).toBe(true);
  });

  it('quote: a chain LI.FI does not serve gives [] without a call', async () => {
    expect(await provider().quote({ ...usdcRequest, toChain: 'move-mvmt:126' })).toEqual([]);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote: 400 surfaces as a client error carrying LI.FI message', async () => {
    upstream.reply('/v1/advanced/routes', { status: 400, json: fixture('quote-invalid-400.json') });
    const err = await failure(provider().quote(usdcRequest));
    expect(isUpstreamClientError(err)).toBe(true);
    expect((err as UpstreamHttpError).status).toBe(400);
    expect((err as UpstreamHttpError).upstreamMessage).toBe('Invalid request: fromAddress must be a valid address');
    expect(upstream.count('/v1/advanced/routes')).toBe(1);
  });

  it('quote: retries a 5xx and returns the later answer', async () => {
    replyStep('quote-usdc-arbitrum-base.json');
    const listed = fixture('quote-usdc-arbitrum-base.json');
    upstream.sequence('/v1/advanced/stepTransaction', [{ status: 502 }, { json: listed }]);
    const routes = await provider().quote(usdcRequest);
    expect(routes).toHaveLength(1);
    expect(upstream.count('/v1/advanced/stepTransaction')).toBe(2);
  });

  it('quote: a hanging upstream ends in UpstreamUnavailableError(timeout)', async () => {
    upstream.reply('/v1/advanced/routes', { hang: true });
    const err = await expectUnavailable(provider().quote(usdcRequest), 'timeout');
    expect(err.provider).toBe('lifi');
  });

  it('opens the circuit after repeated failures and then fails fast', async () => {
    upstream.reply('/v1/advanced/routes', { status: 503, json: { message: 'maintenance' } });
    const lifi = provider();
    for (let i = 0; i < 3; i++) await failure(lifi.quote(usdcRequest));
    expect(upstream.count('/v1/advanced/routes')).toBe(6);
    await expectUnavailable(lifi.quote(usdcRequest), 'circuit_open');
    expect(upstream.count('/v1/advanced/routes')).toBe(6);
  });

  describe('transferStatus', () => {
    const arbTx = '0xe1ffdcf09d5aa92a2d89b1b39db3f8cadf09428a296cce0d5e387595ac83d08f';

    it('DONE: maps sending/receiving to TxInfo and passes the tool and chain hints', async () => {
      upstream.reply('/v1/status', { json: fixture('status-done.json') });
      const answer = await provider().transferStatus({
        txHash: arbTx,
        fromChain: 'eip155:42161',
        toChain: 'eip155:8453',
        tracking: { tool: 'across' },
      });
      expect(upstream.requests('/v1/status')[0]?.query).toEqual({
        txHash: arbTx,
        bridge: 'across',
        fromChain: '42161',
        toChain: '8453',
      });
      expect(answer).toEqual({
        status: 'DONE',
        substatus: 'COMPLETED',
        substatusMessage: 'The transfer is complete.',
        bridge: 'lifi',
        tool: 'across',
        message: 'The transfer is complete.',
        fromTx: {
          txHash: arbTx,
          txLink: `https://arbiscan.io/tx/${arbTx}`,
          chainId: 42161,
          gasUsed: '477174',
          gasPrice: '10000000',
          timestamp: 1720545119,
        },
        toTx: {
          txHash: '0x7b0d7e09c4b2b9b4d1a0f4c6bb2d7b7b0f9b1f6a3e2a8c4e9f5d1b2a3c4d5e6f',
          txLink: 'https://basescan.org/tx/0x7b0d7e09c4b2b9b4d1a0f4c6bb2d7b7b0f9b1f6a3e2a8c4e9f5d1b2a3c4d5e6f',
          chainId: 8453,
          gasUsed: '102311',
          gasPrice: '4501000',
          timestamp: 1720545163,
        },
      });
    });

    it('PENDING: keeps the substatus and has no destination transaction yet', async () => {
      upstream.reply('/v1/status', { json: fixture('status-pending.json') });
      const answer = await provider().transferStatus({ txHash: arbTx });
      expect(upstream.requests('/v1/status')[0]?.query).toEqual({ txHash: arbTx });
      expect(answer?.status).toBe('PENDING');
      expect(answer?.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
      expect(answer?.fromTx?.txHash).toBe(arbTx);
      expect(answer?.toTx).toBeUndefined();
    });

    it('FAILED: normalizes a millisecond timestamp to seconds', async () => {
      upstream.reply('/v1/status', { json: fixture('status-failed.json') });
      const answer = await provider().transferStatus({ txHash: arbTx });
      expect(answer).toMatchObject({ status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED' });
      expect(answer?.fromTx?.timestamp).toBe(1720545119);
    });

    it('NOT_FOUND and INVALID both report NOT_FOUND', async () => {
      upstream.sequence('/v1/status', [
        { json: fixture('status-not-found.json') },
        { json: fixture('status-invalid.json') },
      ]);
      const lifi = provider();
      expect(await lifi.transferStatus({ txHash: arbTx })).toEqual({ status: 'NOT_FOUND', bridge: 'lifi' });
      expect(await lifi.transferStatus({ txHash: arbTx })).toEqual({
        status: 'NOT_FOUND',
        bridge: 'lifi',
        message: 'The bridge could not be determined for this transaction.',
        substatusMessage: 'The bridge could not be determined for this transaction.',
      });
    });

    it('404 with a NOT_FOUND body is NOT_FOUND; a bare 404 means LI.FI does not know it', async () => {
      upstream.sequence('/v1/status', [
        { status: 404, json: fixture('status-not-found.json') },
        { status: 404, json: { message: 'Not Found', code: 1003 } },
      ]);
      const lifi = provider();
      expect((await lifi.transferStatus({ txHash: arbTx }))?.status).toBe('NOT_FOUND');
      expect(await lifi.transferStatus({ txHash: arbTx })).toBeNull();
    });

    it('an invalid hash is a client error', async () => {
      upstream.reply('/v1/status', { status: 400, json: { message: 'Invalid txHash', code: 1011 } });
      expect(isUpstreamClientError(await failure(provider().transferStatus({ txHash: '0x1' })))).toBe(true);
    });
  });
});
