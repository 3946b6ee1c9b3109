/**
 * Mayan against loopback stand-ins: its price and explorer APIs replaying test/fixtures/mayan (shapes
 * from `@mayanfinance/swap-sdk` 12.2.5 dist `Quote`/`Token` and docs.mayan.finance; see its README),
 * and a Solana JSON-RPC stand-in for Solana-source transactions. The forwarder transaction and the
 * Solana instructions are built by the real SDK.
 */
import { readFileSync } from 'node:fs';
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { decodeFunctionData, type Hex, parseAbi } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SolanaRpcStandin,
  STANDIN_BLOCKHASH,
  startSolanaRpcStandin,
} from '../../../../../test/support/solana-rpc-standin.js';
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
import { createMayanProvider, type MayanProviderOptions } from './provider.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/mayan/${name}`, import.meta.url), 'utf8'));

const FORWARDER = '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2';
const SWIFT_ARB = '0xC38e4e6A15593f908255214653d3D947CA1c2338';
const MCTP_ARB = '0x875d6d37EC55c8cF220B9E5080717549d8Aa8EcA';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOLANA_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
/** MayanForwarder's ERC-20 entry point, as in the SDK's MayanForwarderArtifact. */
const FORWARDER_ABI = parseAbi([
  'function forwardERC20(address tokenIn, uint256 amountIn, (uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) permitParams, address mayanProtocol, bytes protocolData) payable',
  'function forwardEth(address mayanProtocol, bytes protocolData) payable',
]);

const upstream = standinPerTest();

function provider(overrides: Partial<MayanProviderOptions> = {}): BridgeProvider {
  const { baseUrl: _b, ...options } = standinProviderOptions(upstream, '');
  return createMayanProvider({
    ...options,
    priceUrl: `${upstream.url}/price/v3`,
    explorerUrl: `${upstream.url}/explorer/v3`,
    ...overrides,
  });
}

const SOLANA_REQUEST: QuoteRequest = {
  ...USDC_REQUEST,
  fromChain: 'solana:mainnet-beta',
  fromToken: USDC_SOL,
  fromAddress: SOLANA_WALLET,
};

describe('createMayanProvider', () => {
  it('is disabled without configuration, says how to enable it, and never calls the upstream', async () => {
    const mayan = createMayanProvider({ enabled: false });
    expect(mayan.name).toBe('mayan');
    expect(mayan.status.enabled === false && mayan.status.reason).toMatch(
      /MAYAN_PRICE_API_URL and MAYAN_EXPLORER_API_URL, or MAYAN_ENABLED=true/,
    );
    await expect(mayan.quote(USDC_REQUEST)).rejects.toBeInstanceOf(UpstreamError);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('chains: the chains Mayan and cipgate both express, described from the registry', async () => {
    const chains = await provider().chains();
    expect(chains.map((c) => c.caip2Id)).toContain('solana:mainnet-beta');
    expect(chains.find((c) => c.caip2Id === 'eip155:42161')).toMatchObject({ name: 'Arbitrum', nativeToken: 'ETH' });
    expect(upstream.requests()).toHaveLength(0);
  });

  it('tokens: GET /tokens?chain=<name>, the zero address as the native token', async () => {
    upstream.reply('/price/v3/tokens', { json: fixture('tokens-arbitrum.json') });
    const tokens = await provider().tokens('eip155:42161');
    expect(upstream.requests('/price/v3/tokens')[0]?.query).toEqual({ chain: 'arbitrum', nonPortal: 'false' });
    expect(tokens.map((t) => [t.symbol, t.address, t.decimals])).toEqual([
      ['ETH', '0x0000000000000000000000000000000000000000', 18],
      ['USDC', USDC_ARB, 6],
    ]);
  });

  it('quote: sends what the SDK sends and maps each quote to a forwarder transaction built by the SDK', async () => {
    upstream.reply('/price/v3/quote', { json: fixture('quote-usdc-arbitrum-base.json') });
    const routes = await provider({ apiKey: 'mayan-key' }).quote(USDC_REQUEST);
    expect(upstream.requests('/price/v3/quote')[0]?.query).toEqual({
      wormhole: 'true',
      swift: 'true',
      mctp: 'true',
      shuttle: 'false',
      fastMctp: 'true',
      gasless: 'false',
      onlyDirect: 'false',
      fullList: 'true',
      monoChain: 'true',
      solanaProgram: 'FC4eXxkyrMPTjiYUpp4EAnkmwMbQyZ6NDCh1kfLn6vsf',
      forwarderAddress: FORWARDER,
      amountIn64: '100000000',
      fromToken: USDC_ARB,
      fromChain: 'arbitrum',
      toToken: USDC_BASE,
      toChain: 'base',
      slippageBps: '50',
      destinationAddress: FIXTURE_WALLET,
      sdkVersion: '12_2_5',
      apiKey: 'mayan-key',
    });
    expect(routes).toHaveLength(2);
    const [swift, mctp] = routes;
    expect(swift).toMatchObject({
      fromChain: 'eip155:42161',
      toChain: 'eip155:8453',
      fromToken: USDC_ARB,
      toToken: USDC_BASE,
      fromAmount: '100000000',
      toAmount: '99877000',
      toAmountMin: '99377000',
      bridgeProvider: 'mayan',
      aggregator: 'mayan',
      estimatedTimeSeconds: 12,
      approvalAddress: FORWARDER,
      expiresAt: 4102444800,
      transactionData: { from: FIXTURE_WALLET, to: FORWARDER, value: '0', chainId: 42161 },
      tracking: {
        quoteType: 'SWIFT',
        quoteId: '0x2c5e8c3a1f0b4d6e9a7c8b5d4e3f2a1b',
        fromChain: 'arbitrum',
        toChain: 'base',
      },
    });
    expect(mctp).toMatchObject({ toAmount: '99600000', estimatedTimeSeconds: 80, tracking: { quoteType: 'MCTP' } });
    // The forwarder pulls the exact amount and hands it to the quote's Mayan contract.
    for (const [route, protocol] of [
      [swift, SWIFT_ARB],
      [mctp, MCTP_ARB],
    ] as const) {
      const call = decodeFunctionData({ abi: FORWARDER_ABI, data: route?.transactionData.data as Hex });
      expect(call.functionName).toBe('forwardERC20');
      const [tokenIn, amountIn, , mayanProtocol] = call.args as unknown as readonly [string, bigint, unknown, string];
      expect([tokenIn.toLowerCase(), amountIn, mayanProtocol.toLowerCase()]).toEqual([
        USDC_ARB.toLowerCase(),
        100_000_000n,
        protocol.toLowerCase(),
      ]);
    }
  });

  it('quote: native ETH is the zero address upstream and goes through forwardEth with the amount as value', async () => {
    const body = fixture('quote-usdc-arbitrum-base.json') as { quotes: Record<string, unknown>[] };
    const eth = { contract: '0x0000000000000000000000000000000000000000', decimals: 18, symbol: 'ETH' };
    const swift = { ...body.quotes[0], fromToken: { ...(body.quotes[0]?.fromToken as object), ...eth } };
    Object.assign(swift, { swiftInputContract: eth.contract, effectiveAmountIn64: '50000000000000000' });
    upstream.reply('/price/v3/quote', { json: { quotes: [swift] } });
    const [route] = await provider().quote({
      ...USDC_REQUEST,
      fromToken: '0x0000000000000000000000000000000000000000',
      fromAmount: 5n * 10n ** 16n,
    });
    expect(upstream.requests('/price/v3/quote')[0]?.query.fromToken).toBe('0x0000000000000000000000000000000000000000');
    expect(route?.transactionData.value).toBe('50000000000000000');
    expect(decodeFunctionData({ abi: FORWARDER_ABI, data: route?.transactionData.data as Hex }).functionName).toBe(
      'forwardEth',
    );
  });

  it('quote: a quote past its deadline is no route', async () => {
    const body = fixture('quote-usdc-arbitrum-base.json') as { quotes: Record<string, unknown>[] };
    for (const q of body.quotes) q.deadline64 = String(Math.floor(Date.now() / 1000) - 5);
    upstream.reply('/price/v3/quote', { json: body });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
  });

  it('quote: a deny list naming mayan, or an allow list without it, gives [] without a call', async () => {
    expect(await provider().quote({ ...USDC_REQUEST, denyBridges: ['Mayan'] })).toEqual([]);
    expect(await provider().quote({ ...USDC_REQUEST, allowBridges: ['across'] })).toEqual([]);
    expect(await provider().quote({ ...USDC_REQUEST, toChain: 'move-mvmt:126' })).toEqual([]);
    expect(upstream.requests()).toHaveLength(0);
  });

  it('quote: an answer asking for a newer SDK is an UpstreamError, not routes the old SDK built', async () => {
    upstream.reply('/price/v3/quote', { json: fixture('quote-outdated-sdk.json') });
    const err = await failure(provider().quote(USDC_REQUEST));
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/requires swap SDK 99\.0\.0 or newer; .* 12\.2\.5 is installed/);
  });

  it('quote: 4xx is the upstream refusing, 5xx is retried then fails, a hang times out; 404 is no route', async () => {
    upstream.reply('/price/v3/quote', { status: 406, json: { code: 'AMOUNT_TOO_SMALL', msg: 'Amount too small' } });
    expect(isUpstreamClientError(await failure(provider().quote(USDC_REQUEST)))).toBe(true);
    upstream.reply('/price/v3/quote', { status: 503, body: 'unavailable' });
    upstream.resetCounts();
    expect(isUpstreamClientError(await failure(provider().quote(USDC_REQUEST)))).toBe(false);
    expect(upstream.count('/price/v3/quote')).toBe(2);
    upstream.reply('/price/v3/quote', { hang: true });
    await expectUnavailable(provider().quote(USDC_REQUEST), 'timeout');
    upstream.reply('/price/v3/quote', { status: 404, json: { msg: 'Route not found' } });
    expect(await provider().quote(USDC_REQUEST)).toEqual([]);
    upstream.reply('/price/v3/quote', { json: { quotes: 'none' } });
    expect(await failure(provider().quote(USDC_REQUEST))).toBeInstanceOf(UpstreamError);
  });

  describe('Solana source', () => {
    let rpc: SolanaRpcStandin;
    beforeEach(async () => {
      rpc = await startSolanaRpcStandin();
    });
    afterEach(() => rpc.close());

    it('without a Solana RPC, no Solana-source route and no call', async () => {
      expect(await provider().quote(SOLANA_REQUEST)).toEqual([]);
      expect(upstream.requests()).toHaveLength(0);
    });

    it('with one: an unsigned v0 transaction that deserializes with web3.js and names the caller as payer', async () => {
      upstream.reply('/price/v3/quote', { json: fixture('quote-usdc-solana-base.json') });
      const [route] = await provider({ solanaRpcUrl: rpc.url }).quote(SOLANA_REQUEST);
      expect(upstream.requests('/price/v3/quote')[0]?.query).toMatchObject({
        fromChain: 'solana',
        fromToken: USDC_SOL,
      });
      if (!route?.serializedTransaction) throw new Error('no serialized transaction');
      expect(route.transactionData).toMatchObject({ from: SOLANA_WALLET, data: route.serializedTransaction });
      const tx = VersionedTransaction.deserialize(Buffer.from(route.serializedTransaction, 'base64'));
      expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(SOLANA_WALLET);
      expect(tx.message.header.numRequiredSignatures).toBe(1);
      expect(tx.message.recentBlockhash).toBe(STANDIN_BLOCKHASH);
      // The Swift program's order instruction is in it (through Mayan's CPI proxy).
      const programs = tx.message.compiledInstructions.map((i) => tx.message.staticAccountKeys[i.programIdIndex]);
      expect(programs.some((p) => p?.equals(new PublicKey('D8C8iW6zmoKg5TRr8nQ7h14TMWqQX8FiBdj2ju5MF3wa')))).toBe(true);
      expect(route.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 60);
      expect(rpc.calls.map((c) => c.method)).toEqual(
        expect.arrayContaining(['getMultipleAccounts', 'getLatestBlockhash']),
      );
    });
  });

  describe('transferStatus', () => {
    const txHash = '0xe1ffdcf09d5aa92a2d89b1b39db3f8cadf09428a296cce0d5e387595ac83d08f';
    const swap = (clientStatus: string, status: string) => ({
      ...(fixture('swap-completed.json') as object),
      clientStatus,
      status,
    });

    it('COMPLETED: DONE with both transactions, Wormhole chain ids mapped', async () => {
      upstream.reply(`/explorer/v3/swap/trx/${txHash}`, { json: fixture('swap-completed.json') });
      const answer = await provider().transferStatus({ txHash });
      expect(answer).toMatchObject({
        status: 'DONE',
        substatus: 'COMPLETED',
        substatusMessage: 'Mayan reports ORDER_SETTLED',
        bridge: 'mayan',
      });
      expect(answer?.fromTx).toMatchObject({ txHash, chainId: 42161, txLink: `https://arbiscan.io/tx/${txHash}` });
      expect(answer?.toTx).toMatchObject({ chainId: 8453 });
    });

    it.each([
      ['INPROGRESS', 'ORDER_SUBMITTED', 'PENDING', 'ORDER_SUBMITTED'],
      ['INPROGRESS', 'ORDER_FULFILLED', 'PENDING', 'ORDER_FULFILLED'],
      ['COMPLETED', 'ORDER_SETTLED', 'DONE', 'COMPLETED'],
      ['REFUNDED', 'ORDER_REFUNDED', 'FAILED', 'REFUNDED'],
      ['SOMETHING_NEW', 'X', 'PENDING', 'SOMETHING_NEW'],
    ])('clientStatus %s (status %s) → %s (%s)', async (clientStatus, status, expected, substatus) => {
      upstream.reply(`/explorer/v3/swap/trx/${txHash}`, { json: swap(clientStatus, status) });
      expect(await provider().transferStatus({ txHash })).toMatchObject({
        status: expected,
        substatus,
        bridge: 'mayan',
      });
    });

    it('404: PENDING when quoted through us (tracking), NOT_FOUND otherwise', async () => {
      upstream.reply(`/explorer/v3/swap/trx/${txHash}`, { status: 404, json: { message: 'not found' } });
      expect(await provider().transferStatus({ txHash, tracking: { quoteType: 'SWIFT' } })).toMatchObject({
        status: 'PENDING',
        substatus: 'NOT_INDEXED',
      });
      expect(await provider().transferStatus({ txHash })).toEqual({ status: 'NOT_FOUND', bridge: 'mayan' });
    });

    it('an answer without clientStatus is an UpstreamError', async () => {
      upstream.reply(`/explorer/v3/swap/trx/${txHash}`, { json: { id: 'x' } });
      expect(await failure(provider().transferStatus({ txHash }))).toBeInstanceOf(UpstreamError);
    });
  });
});
