/**
 * The deBridge DLN adapter against a loopback stand-in replaying test/fixtures/debridge (shapes from
 * docs.debridge.com and debridge-finance/api-integrator-example; see the fixtures' README).
 */
import { readFileSync } from 'node:fs';
import { VersionedTransaction } from '@solana/web3.js';
import { decodeFunctionData, erc20Abi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_EVM } from '../../../../platform/chains/registry.js';
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
import type { BridgeProvider, QuoteRequest } from '../types.js';
import { caip2ToDebridgeChain, debridgeChainToCaip2 } from './chains.js';
import { createDebridgeProvider, type DebridgeProviderOptions, mapDlnState } from './provider.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/debridge/${name}`, import.meta.url), 'utf8'));

const SOL_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const DLN_SOURCE = '0xeF4fB24aD0916217251F553c0596F8Edc630EB66';
const ORDER_ID = `0x${'d1'.repeat(32)}`;

const upstream = standinPerTest();

function provider(overrides: Partial<DebridgeProviderOptions> = {}): BridgeProvider {
  return createDebridgeProvider({ ...standinProviderOptions(upstream, '/v1.0'), ...overrides });
}

const solRequest: QuoteRequest = {
  ...USDC_REQUEST,
  fromChain: 'solana:mainnet-beta',
  toChain: 'eip155:42161',
  fromToken: USDC_SOL,
  toToken: USDC_ARB,
  fromAddress: SOL_WALLET,
};

describe('createDebridgeProvider', () => {
  it('is disabled without configuration, says how to enable it, and never calls the upstream', async () => {
    const dln = createDebridgeProvider({ enabled: false, baseUrl: upstream.url });
    expect(dln.name).toBe('debridge');
    expect(dln.status.enabled === false && dln.status.reason).toMatch(/DEBRIDGE_ENABLED=true or DEBRIDGE_API_URL/);
    await expect(dln.quote(USDC_REQUEST)).rejects.toBeInstanceOf(UpstreamError);
    await expect(dln.transferStatus({ txHash: '0x1' })).rejects.toBeInstanceOf(UpstreamError);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('chain ids: internal ids map to EIP-155 ids and back; Solana is 7565164; TRON is not served', () => {
    expect(debridgeChainToCaip2(42161)).toBe('eip155:42161');
    expect(debridgeChainToCaip2(7565164)).toBe('solana:mainnet-beta');
    expect(debridgeChainToCaip2(100000002)).toBe('eip155:100');
    expect(debridgeChainToCaip2(100000026)).toBeUndefined();
    expect(caip2ToDebridgeChain('eip155:100')).toBe(100000002);
    expect(caip2ToDebridgeChain('eip155:8453')).toBe(8453);
    expect(caip2ToDebridgeChain('solana:mainnet-beta')).toBe(7565164);
    expect(caip2ToDebridgeChain('bip122:000000000019d6689c085ae165831e93')).toBeUndefined();
  });

  it('chains and tokens from /supported-chains-info and /token-list, with the access token', async () => {
    upstream.reply('/v1.0/supported-chains-info', { json: fixture('supported-chains-info.json') });
    upstream.reply('/v1.0/token-list', { json: fixture('token-list-42161.json') });
    const dln = provider({ accessToken: 'dln-token' });
    const chains = await dln.chains();
    expect(chains.map((c) => c.caip2Id)).toEqual([
      'eip155:1',
      'eip155:10',
      'eip155:56',
      'eip155:137',
      'eip155:8453',
      'eip155:42161',
      'solana:mainnet-beta',
      'eip155:100',
    ]);
    expect(chains.find((c) => c.caip2Id === 'eip155:100')).toMatchObject({ name: 'Gnosis', isBridgeSupported: true });
    const tokens = await dln.tokens('eip155:42161');
    expect(upstream.requests('/v1.0/token-list')[0]?.query).toEqual({ chainId: '42161', accesstoken: 'dln-token' });
    expect(upstream.requests('/v1.0/supported-chains-info')[0]?.query).toEqual({ accesstoken: 'dln-token' });
    expect(tokens.map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'ARB']);
    expect(tokens[1]).toMatchObject({ address: USDC_ARB.toLowerCase(), decimals: 6 });
    expect(tokens[2]?.logoURI).toBe('');
    // Gnosis is asked by its internal id.
    await dln.tokens('eip155:100');
    expect(upstream.requests('/v1.0/token-list')[1]?.query.chainId).toBe('100000002');
  });

  it('quote: ERC-20 source → the order transaction to DlnSource, an approval of DlnSource, orderId tracked', async () => {
    upstream.reply('/v1.0/dln/order/create-tx', { json: fixture('create-tx-usdc-arbitrum-base.json') });
    const routes = await provider({
      accessToken: 'dln-token',
      referralCode: 31805,
      integrator: { integrator: 'cipgate-test', fee: 0.003 },
      affiliateFeeRecipient: FIXTURE_WALLET,
    }).quote(USDC_REQUEST);
    expect(upstream.requests('/v1.0/dln/order/create-tx')[0]?.query).toEqual({
      srcChainId: '42161',
      srcChainTokenIn: USDC_ARB,
      srcChainTokenInAmount: '100000000',
      dstChainId: '8453',
      dstChainTokenOut: USDC_BASE,
      dstChainTokenOutAmount: 'auto',
      dstChainTokenOutRecipient: FIXTURE_WALLET,
      senderAddress: FIXTURE_WALLET,
      srcChainOrderAuthorityAddress: FIXTURE_WALLET,
      srcChainRefundAddress: FIXTURE_WALLET,
      dstChainOrderAuthorityAddress: FIXTURE_WALLET,
      prependOperatingExpenses: 'false',
      referralCode: '31805',
      affiliateFeePercent: '0.3',
      affiliateFeeRecipient: FIXTURE_WALLET,
      accesstoken: 'dln-token',
    });
    expect(routes).toHaveLength(1);
    const [route] = routes;
    expect(route).toMatchObject({
      fromChain: 'eip155:42161',
      toChain: 'eip155:8453',
      fromToken: USDC_ARB,
      toToken: USDC_BASE,
      fromAmount: '100000000',
      toAmount: '99560000',
      toAmountMin: '99560000',
      feeCostUSD: '0.04',
      fromAmountUSD: '99.98',
      toAmountUSD: '99.54',
      bridgeProvider: 'debridge',
      aggregator: 'debridge',
      estimatedTimeSeconds: 2,
      approvalAddress: DLN_SOURCE,
      tracking: { orderId: ORDER_ID, srcChainId: 42161, dstChainId: 8453, fixFee: '1000000000000000' },
    });
    expect(route?.transactionData).toMatchObject({
      from: FIXTURE_WALLET,
      to: DLN_SOURCE,
      value: '1000000000000000',
      chainId: 42161,
    });
    const approval = route?.approvalTransaction;
    expect(approval).toMatchObject({ from: FIXTURE_WALLET, to: USDC_ARB, value: '0', chainId: 42161 });
    const call = decodeFunctionData({ abi: erc20Abi, data: approval?.data as Hex });
    expect(call).toEqual({ functionName: 'approve', args: [DLN_SOURCE, 100_000_000n] });
  });

  it('quote: no referral, affiliate fee or token unless configured; native source needs no approval', async () => {
    upstream.reply('/v1.0/dln/order/create-tx', { json: fixture('create-tx-usdc-arbitrum-base.json') });
    const [route] = await provider({ integrator: { integrator: 'cipgate-test', fee: 0.003 } }).quote({
      ...USDC_REQUEST,
      fromToken: NATIVE_EVM,
    });
    const query = upstream.requests('/v1.0/dln/order/create-tx')[0]?.query ?? {};
    expect(query.srcChainTokenIn).toBe(NATIVE_EVM);
    for (const absent of ['referralCode', 'affiliateFeePercent', 'affiliateFeeRecipient', 'accesstoken']) {
      expect(query, absent).not.toHaveProperty(absent);
    }
    expect(route?.approvalTransaction).toBeUndefined();
    expect(route?.approvalAddress).toBeUndefined();
  });

  it('quote: a Solana source carries the upstream transaction as base64; it deserializes and names the payer', async () => {
    const answer = fixture('create-tx-usdc-solana-arbitrum.json') as { tx: { data: string } };
    upstream.reply('/v1.0/dln/order/create-tx', { json: answer });
    const [route] = await provider({
      integrator: { integrator: 'cipgate-test', fee: 0.003 },
      affiliateFeeRecipient: FIXTURE_WALLET,
    }).quote(solRequest);
    const query = upstream.requests('/v1.0/dln/order/create-tx')[0]?.query ?? {};
    expect(query).toMatchObject({ srcChainId: '7565164', dstChainId: '42161', senderAddress: SOL_WALLET });
    // An EVM fee recipient cannot take a fee paid on Solana.
    expect(query).not.toHaveProperty('affiliateFeePercent');
    if (!route?.serializedTransaction) throw new Error('no serialized transaction');
    expect(Buffer.from(route.serializedTransaction, 'base64').toString('hex')).toBe(answer.tx.data.slice(2));
    const tx = VersionedTransaction.deserialize(Buffer.from(route.serializedTransaction, 'base64'));
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(SOL_WALLET);
    expect(tx.message.staticAccountKeys.map((k) => k.toBase58())).toContain(
      'src5qyZHqTqecJV4aY6Cb6zDZLMDzrDKKezs22MPHr4',
    );
    expect(route.transactionData).toMatchObject({ from: SOL_WALLET, chainId: 7565164 });
    expect(route.approvalTransaction).toBeUndefined();
    expect(route.tracking).toMatchObject({ orderId: `0x${'d2'.repeat(32)}` });
  });

  it('quote: a Solana transaction paid by another wallet is not offered; bytes that are no transaction fail', async () => {
    upstream.reply('/v1.0/dln/order/create-tx', { json: fixture('create-tx-usdc-solana-arbitrum.json') });
    const other = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
    expect(await provider().quote({ ...solRequest, fromAddress: other })).toEqual([]);
    upstream.reply('/v1.0/dln/order/create-tx', {
      json: { ...(fixture('create-tx-usdc-solana-arbitrum.json') as object), tx: { data: '0xdeadbeef' } },
    });
    await expect(provider().quote(solRequest)).rejects.toThrow(/not a Solana transaction/);
  });

  it('quote: an estimation without tx is no route; bridge lists apply before asking', async () => {
    const { tx: _tx, ...estimationOnly } = fixture('create-tx-usdc-arbitrum-base.json') as Record<string, unknown>;
    upstream.reply('/v1.0/dln/order/create-tx', { json: estimationOnly });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
    upstream.resetCounts();
    expect(await provider().quote({ ...USDC_REQUEST, allowBridges: ['across'] })).toEqual([]);
    expect(await provider().quote({ ...USDC_REQUEST, denyBridges: ['deBridge'] })).toEqual([]);
    expect(upstream.count('/v1.0/dln/order/create-tx')).toBe(0);
  });

  it('quote errors: a refused request is a client error, 5xx and hangs are unavailable', async () => {
    upstream.reply('/v1.0/dln/order/create-tx', { status: 400, json: fixture('create-tx-invalid-400.json') });
    const refused = await failure(provider().quote(USDC_REQUEST));
    expect(isUpstreamClientError(refused)).toBe(true);
    upstream.reply('/v1.0/dln/order/create-tx', { status: 503, body: 'maintenance' });
    const down = await failure(provider().quote(USDC_REQUEST));
    expect(down).toBeInstanceOf(UpstreamError);
    expect(isUpstreamClientError(down)).toBe(false);
    upstream.reply('/v1.0/dln/order/create-tx', { hang: true });
    await expectUnavailable(provider().quote(USDC_REQUEST), 'timeout');
  });

  it('status: by the tracked orderId, without the hash lookup', async () => {
    upstream.reply(`/v1.0/dln/order/${ORDER_ID}/status`, { json: fixture('order-status-fulfilled.json') });
    const hash = `0x${'ab'.repeat(32)}`;
    const answer = await provider().transferStatus({
      txHash: hash,
      fromChain: 'eip155:42161',
      tracking: { orderId: ORDER_ID },
    });
    expect(upstream.requests().map((r) => r.path)).toEqual([`/v1.0/dln/order/${ORDER_ID}/status`]);
    expect(answer).toMatchObject({
      status: 'DONE',
      substatus: 'COMPLETED',
      bridge: 'debridge',
      fromTx: { txHash: hash, chainId: 42161, txLink: expect.stringContaining('arbiscan') },
    });
  });

  it('status: with only a hash, its order ids first (plain or wrapped); none is null', async () => {
    const hash = `0x${'cd'.repeat(32)}`;
    upstream.reply(`/v1.0/dln/tx/${hash}/order-ids`, { json: fixture('order-ids.json') });
    upstream.reply(`/v1.0/dln/order/${ORDER_ID}/status`, { json: { orderId: ORDER_ID, status: 'Created' } });
    expect(await provider().transferStatus({ txHash: hash })).toMatchObject({
      status: 'PENDING',
      substatus: 'CREATED',
    });
    upstream.reply(`/v1.0/dln/tx/${hash}/order-ids`, { json: { orderIds: [{ stringValue: ORDER_ID }] } });
    expect(await provider().transferStatus({ txHash: hash })).toMatchObject({ status: 'PENDING' });
    upstream.reply(`/v1.0/dln/tx/${hash}/order-ids`, { json: { orderIds: [] } });
    expect(await provider().transferStatus({ txHash: hash })).toBeNull();
  });

  it('status: every documented order state maps, with its substatus', async () => {
    const table: [string, string, string][] = [
      ['None', 'NOT_FOUND', 'NONE'],
      ['Created', 'PENDING', 'CREATED'],
      ['Fulfilled', 'DONE', 'COMPLETED'],
      ['SentUnlock', 'DONE', 'COMPLETED'],
      ['ClaimedUnlock', 'DONE', 'COMPLETED'],
      ['OrderCancelled', 'FAILED', 'REFUNDED'],
      ['SentOrderCancel', 'FAILED', 'REFUNDED'],
      ['ClaimedOrderCancel', 'FAILED', 'REFUNDED'],
      ['SomethingNew', 'NOT_FOUND', 'SOMETHINGNEW'],
    ];
    for (const [state, status, substatus] of table) {
      expect(mapDlnState(state), state).toMatchObject({ status, substatus });
      upstream.reply(`/v1.0/dln/order/${ORDER_ID}/status`, { json: { orderId: ORDER_ID, status: state } });
      const answer = await provider().transferStatus({ txHash: '0xab', tracking: { orderId: ORDER_ID } });
      expect(answer, state).toMatchObject({ status, substatus, bridge: 'debridge' });
      expect(answer?.substatusMessage).toContain(state);
    }
  });

  it('status errors: 5xx is an UpstreamError; an unknown order (404) is null', async () => {
    upstream.reply(`/v1.0/dln/order/${ORDER_ID}/status`, { status: 500, json: { errorMessage: 'down' } });
    await expect(provider().transferStatus({ txHash: '0xab', tracking: { orderId: ORDER_ID } })).rejects.toBeInstanceOf(
      UpstreamError,
    );
    upstream.reply(`/v1.0/dln/order/${ORDER_ID}/status`, { status: 404, json: { errorMessage: 'not found' } });
    expect(await provider().transferStatus({ txHash: '0xab', tracking: { orderId: ORDER_ID } })).toBeNull();
  });
});
