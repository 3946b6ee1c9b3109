/**
 * The Relay adapter against a loopback stand-in replaying test/fixtures/relay (shapes from
 * @relayprotocol/relay-sdk 7.0.3 types and docs.relay.link; see the fixtures' README).
 */
import { readFileSync } from 'node:fs';
import { PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { decodeFunctionData, erc20Abi, getAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_EVM, NATIVE_SOLANA } from '../../../../platform/chains/registry.js';
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
import { createRelayProvider, mapRelayStatus, type RelayProviderOptions } from './provider.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/relay/${name}`, import.meta.url), 'utf8'));

const SOL_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const ROUTER = getAddress('0xa1bea5fe917450041748dbbbe7e9ac57a4bbebab');
const SOLVER = '0xf70da97812CB96acDF810712Aa562db8dfA3dbEF';
const REQUEST_ID = `0x${'a1'.repeat(32)}`;

const upstream = standinPerTest();

function provider(overrides: Partial<RelayProviderOptions> = {}): BridgeProvider {
  return createRelayProvider({ ...standinProviderOptions(upstream, ''), ...overrides });
}

const ethRequest: QuoteRequest = {
  ...USDC_REQUEST,
  fromChain: 'eip155:1',
  fromToken: NATIVE_EVM,
  toToken: NATIVE_EVM,
  fromAmount: 10n ** 18n,
};

const solRequest: QuoteRequest = {
  ...USDC_REQUEST,
  fromChain: 'solana:mainnet-beta',
  fromToken: NATIVE_SOLANA,
  toToken: NATIVE_EVM,
  fromAmount: 5_000_000n,
  fromAddress: SOL_WALLET,
};

describe('createRelayProvider', () => {
  it('is disabled without configuration, says how to enable it, and never calls the upstream', async () => {
    const relay = createRelayProvider({ enabled: false, baseUrl: upstream.url });
    expect(relay.name).toBe('relay');
    expect(relay.status.enabled === false && relay.status.reason).toMatch(/RELAY_ENABLED=true or RELAY_API_URL/);
    await expect(relay.quote(USDC_REQUEST)).rejects.toBeInstanceOf(UpstreamError);
    await expect(relay.transferStatus({ txHash: '0x1' })).rejects.toBeInstanceOf(UpstreamError);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('chains: EVM chains and Solana in CAIP-2; Bitcoin and disabled chains left out', async () => {
    upstream.reply('/chains', { json: fixture('chains.json') });
    const chains = await provider().chains();
    expect(chains.map((c) => c.caip2Id)).toEqual(['eip155:1', 'eip155:8453', 'eip155:42161', 'solana:mainnet-beta']);
    expect(chains[3]).toEqual({
      caip2Id: 'solana:mainnet-beta',
      name: 'Solana',
      nativeToken: 'SOL',
      logoURI: 'https://assets.relay.link/icons/square/792703809/light.png',
      isBridgeSupported: true,
    });
  });

  it("tokens: the chain's curated list from POST /currencies/v2", async () => {
    upstream.reply('/currencies/v2', { json: fixture('currencies-42161.json') });
    const tokens = await provider().tokens('eip155:42161');
    expect(upstream.requests('/currencies/v2')[0]?.body).toEqual({
      chainIds: [42161],
      defaultList: true,
      verified: true,
      limit: 100,
    });
    expect(tokens.map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'USDT']);
    expect(tokens[1]).toMatchObject({ address: USDC_ARB, decimals: 6, name: 'USD Coin' });
    expect(tokens[2]?.logoURI).toBe('');
    // Solana is asked by Relay's id; chains Relay cannot name are [] without a call.
    upstream.reply('/currencies/v2', { json: [] });
    expect(await provider().tokens('solana:mainnet-beta')).toEqual([]);
    expect(upstream.requests('/currencies/v2')[1]?.body).toMatchObject({ chainIds: [792703809] });
    expect(await provider().tokens('bip122:000000000019d6689c085ae165831e93')).toEqual([]);
    expect(upstream.count('/currencies/v2')).toBe(2);
  });

  it('quote: ERC-20 source → the swap step as transactionData, the approve step as approval, requestId tracked', async () => {
    upstream.reply('/quote/v2', { json: fixture('quote-usdc-arbitrum-base.json') });
    const routes = await provider({
      apiKey: 'relay-key',
      integrator: { integrator: 'cipgate-test', fee: 0.003 },
      appFeeRecipient: FIXTURE_WALLET,
    }).quote(USDC_REQUEST);
    const sent = upstream.requests('/quote/v2')[0];
    expect(sent?.headers['x-api-key']).toBe('relay-key');
    expect(sent?.body).toEqual({
      user: FIXTURE_WALLET,
      recipient: FIXTURE_WALLET,
      originChainId: 42161,
      destinationChainId: 8453,
      originCurrency: USDC_ARB,
      destinationCurrency: USDC_BASE,
      amount: '100000000',
      tradeType: 'EXACT_INPUT',
      slippageTolerance: '50',
      referrer: 'cipgate-test',
      appFees: [{ recipient: FIXTURE_WALLET, fee: '30' }],
    });
    expect(routes).toHaveLength(1);
    const [route] = routes;
    expect(route).toMatchObject({
      fromChain: 'eip155:42161',
      toChain: 'eip155:8453',
      fromAmount: '100000000',
      toAmount: '99938956',
      toAmountMin: '99439261',
      gasCostUSD: '0.013282',
      feeCostUSD: '0.061035',
      fromAmountUSD: '99.9851',
      toAmountUSD: '99.924',
      bridgeProvider: 'relay',
      aggregator: 'relay',
      estimatedTimeSeconds: 3,
      approvalAddress: ROUTER,
      tracking: { requestId: REQUEST_ID, originChainId: 42161, destinationChainId: 8453 },
    });
    expect(route?.transactionData).toMatchObject({
      from: FIXTURE_WALLET,
      to: ROUTER,
      value: '0',
      gasLimit: '210000',
      gasPrice: '20000000',
      chainId: 42161,
    });
    const approval = route?.approvalTransaction;
    expect(approval).toMatchObject({ from: FIXTURE_WALLET, to: USDC_ARB, value: '0', chainId: 42161 });
    const call = decodeFunctionData({ abi: erc20Abi, data: approval?.data as Hex });
    expect(call).toEqual({ functionName: 'approve', args: [ROUTER, 100_000_000n] });
  });

  it('quote: without referrer or app fee when none is configured; no app fee without a recipient', async () => {
    upstream.reply('/quote/v2', { json: fixture('quote-eth-mainnet-base.json') });
    await provider().quote(ethRequest);
    await provider({ integrator: { integrator: 'cipgate-test', fee: 0.003 } }).quote(ethRequest);
    const [bare, named] = upstream.requests('/quote/v2').map((r) => r.body as Record<string, unknown>);
    expect(bare).not.toHaveProperty('referrer');
    expect(bare).not.toHaveProperty('appFees');
    expect(named).toMatchObject({ referrer: 'cipgate-test' });
    expect(named).not.toHaveProperty('appFees');
    expect(upstream.requests('/quote/v2')[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('quote: native ETH is one deposit to the solver with the value, no approval', async () => {
    upstream.reply('/quote/v2', { json: fixture('quote-eth-mainnet-base.json') });
    const [route] = await provider().quote({ ...ethRequest, fromToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' });
    expect(upstream.requests('/quote/v2')[0]?.body).toMatchObject({ originCurrency: NATIVE_EVM, originChainId: 1 });
    expect(route?.transactionData).toMatchObject({
      to: SOLVER,
      data: `0x${'b2'.repeat(32)}`,
      value: '1000000000000000000',
      chainId: 1,
    });
    expect(route?.approvalTransaction).toBeUndefined();
    expect(route?.approvalAddress).toBeUndefined();
    expect(route?.tracking).not.toHaveProperty('allowanceSufficient');
  });

  it('quote: an ERC-20 quote without an approve step means the allowance already covers it', async () => {
    const answer = structuredClone(fixture('quote-usdc-arbitrum-base.json')) as { steps: { id: string }[] };
    answer.steps = answer.steps.filter((s) => s.id !== 'approve');
    upstream.reply('/quote/v2', { json: answer });
    const [route] = await provider().quote(USDC_REQUEST);
    expect(route?.approvalTransaction).toBeUndefined();
    expect(route?.tracking).toMatchObject({ allowanceSufficient: true });
  });

  it('quote: a Solana source becomes a v0 transaction the sender pays, with every instruction', async () => {
    upstream.reply('/quote/v2', { json: fixture('quote-sol-solana-base.json') });
    const [route] = await provider().quote(solRequest);
    expect(upstream.requests('/quote/v2')[0]?.body).toMatchObject({
      originChainId: 792703809,
      originCurrency: NATIVE_SOLANA,
      user: SOL_WALLET,
    });
    if (!route?.serializedTransaction) throw new Error('no serialized transaction');
    const tx = VersionedTransaction.deserialize(Buffer.from(route.serializedTransaction, 'base64'));
    expect(tx.message.version).toBe(0);
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(SOL_WALLET);
    expect(tx.message.header.numRequiredSignatures).toBe(1);
    const programs = tx.message.compiledInstructions.map((ix) => tx.message.staticAccountKeys[ix.programIdIndex]);
    expect(programs.map((p) => p?.toBase58())).toEqual([
      SystemProgram.programId.toBase58(),
      'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
    ]);
    // The memo carries the request id, byte for byte.
    expect(Buffer.from(tx.message.compiledInstructions[1]?.data ?? []).toString('hex')).toBe('c3'.repeat(32));
    expect(tx.message.recentBlockhash).toBe(PublicKey.default.toBase58());
    expect(route.transactionData).toMatchObject({
      from: SOL_WALLET,
      data: route.serializedTransaction,
      chainId: 792703809,
    });
    expect(route.approvalTransaction).toBeUndefined();
  });

  it('quote: Solana instructions that do not fit one packet without their lookup tables are not offered', async () => {
    const answer = structuredClone(fixture('quote-sol-solana-base.json')) as {
      steps: { items: { data: { instructions: { keys: { pubkey: string }[] }[] } }[] }[];
    };
    const instructions = answer.steps[0]?.items[0]?.data.instructions ?? [];
    const memo = instructions[1];
    for (let i = 1; i <= 40; i++) {
      const key = new PublicKey(new Uint8Array(32).fill(i)).toBase58();
      instructions.push({
        ...structuredClone(memo),
        keys: [{ pubkey: key, isSigner: false, isWritable: true }],
      } as never);
    }
    upstream.reply('/quote/v2', { json: answer });
    expect(await provider().quote(solRequest)).toEqual([]);
  });

  it('quote: a signature step (permit) or two deposit transactions cannot be one route', async () => {
    const withSignature = structuredClone(fixture('quote-usdc-arbitrum-base.json')) as { steps: unknown[] };
    withSignature.steps.unshift({ id: 'authorize', kind: 'signature', items: [{ status: 'incomplete', data: {} }] });
    upstream.reply('/quote/v2', { json: withSignature });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
    const twoItems = structuredClone(fixture('quote-eth-mainnet-base.json')) as { steps: { items: unknown[] }[] };
    twoItems.steps[0]?.items.push(twoItems.steps[0]?.items[0]);
    upstream.reply('/quote/v2', { json: twoItems });
    expect(await provider().quote(ethRequest)).toEqual([]);
  });

  it('quote: bridge lists are applied before asking (Relay bridges only itself)', async () => {
    upstream.reply('/quote/v2', { json: fixture('quote-eth-mainnet-base.json') });
    expect(await provider().quote({ ...ethRequest, allowBridges: ['stargate'] })).toEqual([]);
    expect(await provider().quote({ ...ethRequest, denyBridges: ['RELAY'] })).toEqual([]);
    expect(upstream.count('/quote/v2')).toBe(0);
    expect(await provider().quote({ ...ethRequest, allowBridges: ['Relay'] })).toHaveLength(1);
  });

  it('quote: chains Relay cannot name are [] without a call', async () => {
    expect(await provider().quote({ ...USDC_REQUEST, toChain: 'bip122:000000000019d6689c085ae165831e93' })).toEqual([]);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote errors: a "no route" code is [], a refused request a client error, 5xx and hangs unavailable', async () => {
    upstream.reply('/quote/v2', { status: 400, json: fixture('quote-no-routes-400.json') });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
    upstream.reply('/quote/v2', { status: 400, json: fixture('quote-invalid-address-400.json') });
    const refused = await failure(provider().quote(USDC_REQUEST));
    expect(isUpstreamClientError(refused)).toBe(true);
    expect(refused).toBeInstanceOf(UpstreamError);
    upstream.reply('/quote/v2', { status: 500, json: { message: 'Internal error' } });
    const down = await failure(provider().quote(USDC_REQUEST));
    expect(down).toBeInstanceOf(UpstreamError);
    expect(isUpstreamClientError(down)).toBe(false);
    upstream.reply('/quote/v2', { hang: true });
    await expectUnavailable(provider().quote(USDC_REQUEST), 'timeout');
    upstream.reply('/quote/v2', { json: { steps: 'nope' } });
    await expect(provider().quote(USDC_REQUEST)).rejects.toThrow(/steps is not a list/);
  });

  it('status: by the tracked requestId through /intents/status/v3', async () => {
    upstream.reply('/intents/status/v3', { json: fixture('intent-status-success.json') });
    const answer = await provider().transferStatus({
      txHash: `0x${'12'.repeat(32)}`,
      tracking: { requestId: REQUEST_ID, originChainId: 42161, destinationChainId: 8453 },
    });
    expect(upstream.requests('/intents/status/v3')[0]?.query).toEqual({ requestId: REQUEST_ID });
    expect(upstream.count('/requests/v2')).toBe(0);
    expect(answer).toMatchObject({
      status: 'DONE',
      substatus: 'COMPLETED',
      bridge: 'relay',
      fromTx: { txHash: `0x${'12'.repeat(32)}`, chainId: 42161, txLink: expect.stringContaining('arbiscan') },
      toTx: { txHash: `0x${'34'.repeat(32)}`, chainId: 8453 },
    });
  });

  it('status: every documented state maps, with its substatus', async () => {
    const table: [string, string, string][] = [
      ['waiting', 'PENDING', 'WAITING'],
      ['depositing', 'PENDING', 'DEPOSITING'],
      ['pending', 'PENDING', 'PENDING'],
      ['submitted', 'PENDING', 'SUBMITTED'],
      ['delayed', 'PENDING', 'DELAYED'],
      ['success', 'DONE', 'COMPLETED'],
      ['refund', 'FAILED', 'REFUNDED'],
      ['refunded', 'FAILED', 'REFUNDED'],
      ['failure', 'FAILED', 'FAILURE'],
      ['something-new', 'NOT_FOUND', 'SOMETHING-NEW'],
    ];
    for (const [relay, status, substatus] of table) {
      expect(mapRelayStatus(relay), relay).toEqual({ status, substatus });
      upstream.reply('/intents/status/v3', {
        json: { ...(fixture('intent-status-success.json') as object), status: relay },
      });
      const answer = await provider().transferStatus({ txHash: '0xab', tracking: { requestId: REQUEST_ID } });
      expect(answer, relay).toMatchObject({ status, substatus, bridge: 'relay' });
    }
  });

  it('status: without a requestId, the request is found by hash through /requests/v2', async () => {
    upstream.reply('/requests/v2', { json: fixture('requests-v2.json') });
    const hash = `0x${'56'.repeat(32)}`;
    const answer = await provider().transferStatus({ txHash: hash });
    expect(upstream.requests('/requests/v2')[0]?.query).toEqual({ hash });
    expect(answer).toMatchObject({
      status: 'FAILED',
      substatus: 'REFUNDED',
      substatusMessage: 'AMOUNT_TOO_LOW_TO_REFUND',
      fromTx: { txHash: hash, chainId: 42161, timestamp: 1764640000 },
      toTx: { txHash: `0x${'78'.repeat(32)}` },
    });
    upstream.reply('/requests/v2', { json: { requests: [], continuation: '' } });
    expect(await provider().transferStatus({ txHash: hash })).toBeNull();
  });

  it('status errors: 5xx is an UpstreamError; a body without status is one too', async () => {
    upstream.reply('/intents/status/v3', { status: 502, body: 'bad gateway' });
    await expect(
      provider().transferStatus({ txHash: '0xab', tracking: { requestId: REQUEST_ID } }),
    ).rejects.toBeInstanceOf(UpstreamError);
    upstream.reply('/requests/v2', { json: { requests: [{ id: 'x' }] } });
    await expect(provider().transferStatus({ txHash: '0xab' })).rejects.toThrow(/without a status/);
  });
});
