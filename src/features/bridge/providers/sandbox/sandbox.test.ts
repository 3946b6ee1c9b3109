import { PublicKey, Transaction } from '@solana/web3.js';
import { bytesToHex, getAddress, hexToString, stringToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_EVM, NATIVE_SOLANA } from '../../../../platform/chains/registry.js';
import { SANDBOX_ETH_TO_BASE_ROUTE } from '../../bridge.test-helper.js';
import { NATIVE_BITCOIN, PRICE_SNAPSHOT, seedChains, seedTokens } from '../catalogue-seed/index.js';
import type { QuoteRequest } from '../types.js';
import { isFamilyAddress } from './addresses.js';
import { formatUsd, parsePrice } from './amounts.js';
import { LIFI_BITCOIN_CHAIN_ID, LIFI_SOLANA_CHAIN_ID, sandboxChainParams } from './chain-params.js';
import { createSandboxProvider, RELAYER_FEE_BPS, SWAP_FEE_BPS } from './index.js';
import { SANDBOX_MARKER } from './transaction.js';

const NOW = new Date('2025-06-02T12:00:00.000Z');
const provider = createSandboxProvider({ now: () => NOW });

const WALLET = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const RECIPIENT = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
const SOL_WALLET = new PublicKey(new Uint8Array(32).fill(7)).toBase58();
const BTC_WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'; // BIP-173 test vector
const MARKER_HEX = bytesToHex(stringToBytes(SANDBOX_MARKER));

/** The marker, then a 32-byte commitment to the quoted intent: nothing a contract could act on. */
function expectMarkerPayload(hex: string) {
  expect(hex.startsWith(MARKER_HEX)).toBe(true);
  expect(hex).toMatch(/^0x[0-9a-f]+$/);
  expect(hex).toHaveLength(MARKER_HEX.length + 64);
}

const USDC_ETH = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const WBTC_ETH = '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const request = (over: Partial<QuoteRequest>): QuoteRequest => ({
  order: 'CHEAPEST',
  allowBridges: [],
  denyBridges: [],
  maxRoutes: 5,
  fromChain: 'eip155:1',
  toChain: 'eip155:8453',
  fromToken: NATIVE_EVM,
  toToken: NATIVE_EVM,
  fromAmount: 10n ** 18n,
  fromAddress: WALLET,
  toAddress: RECIPIENT,
  slippage: 0.03,
  ...over,
});

async function onlyRoute(over: Partial<QuoteRequest>) {
  const routes = await provider.quote(request(over));
  expect(routes).toHaveLength(1);
  return routes[0]!;
}

/** Fill cost of the destination in units of a $1.00 token with `decimals`, as the fee model charges it. */
const fillUnits = (toChain: string, decimals: number) =>
  BigInt(Number(sandboxChainParams(toChain)!.fillCostUSD) * 100) * 10n ** BigInt(decimals - 2);

describe('sandbox bridge provider', () => {
  it('serves the catalogue seed', async () => {
    expect(provider.name).toBe('sandbox');
    expect(provider.status).toEqual({ enabled: true });
    expect(await provider.chains()).toEqual(seedChains());
    expect(await provider.tokens('eip155:137')).toEqual(seedTokens('eip155:137'));
  });

  it('quotes ETH on Ethereum to ETH on Base with a harmless self-call on chain 1', async () => {
    const route = await onlyRoute({});
    expect(route).toMatchObject(SANDBOX_ETH_TO_BASE_ROUTE);
    const toAmount = BigInt(route.toAmount);
    expect(toAmount).toBeGreaterThan(0n);
    expect(toAmount).toBeLessThan(10n ** 18n);
    expect(BigInt(route.toAmountMin)).toBeLessThanOrEqual(toAmount);
    for (const usd of [route.gasCostUSD, route.feeCostUSD, route.fromAmountUSD, route.toAmountUSD]) {
      expect(usd).toMatch(/^\d+\.\d{2,6}$/);
    }
    expect(route.fromAmountUSD).toBe(formatUsd(parsePrice(PRICE_SNAPSHOT.prices.ETH!)));
    // What arrives is what was sent minus the fee, at the same price on both sides.
    expect(Number(route.toAmountUSD)).toBeCloseTo(Number(route.fromAmountUSD) - Number(route.feeCostUSD), 2);
    const source = sandboxChainParams('eip155:1')!;
    const destination = sandboxChainParams('eip155:8453')!;
    expect(route.estimatedTimeSeconds).toBe(source.finalitySeconds + destination.fillSeconds);

    const tx = route.transactionData;
    expect(tx.chainId).toBe(1);
    expect(tx.from).toBe(WALLET);
    // Signed on a real network it is a call to the sender's own address carrying nothing.
    expect(tx.to).toBe(getAddress(WALLET));
    expect(tx.value).toBe('0');
    expect(tx.gasLimit).toBe(source.nativeDepositGas.toString());
    expect(tx.gasPrice).toBe(source.gasPrice.toString());
    expectMarkerPayload(tx.data);
    // Each quote commits to its own intent, so status can link a mined transaction to its route.
    const other = await onlyRoute({ fromAmount: 2n * 10n ** 18n });
    expect(other.transactionData.data).not.toBe(tx.data);
    expect((await onlyRoute({})).transactionData.data).toBe(tx.data);
  });

  it('bridges USDC to USDC in the same decimals, minus the relayer fee and the fill cost, with no value', async () => {
    const amount = 2_500_000_000n; // 2,500 USDC
    const route = await onlyRoute({ fromToken: USDC_ETH, toToken: USDC_BASE, fromAmount: amount, slippage: 0 });
    const fee = (amount * RELAYER_FEE_BPS + 9_999n) / 10_000n + fillUnits('eip155:8453', 6);
    expect(BigInt(route.toAmount)).toBe(amount - fee);
    expect(route.toAmountMin).toBe(route.toAmount);
    expect(route.fromAmountUSD).toBe('2500.00');
    expect(route.feeCostUSD).toBe(formatUsd((fee * 10n ** 18n) / 10n ** 6n));
    expect(route.transactionData).toMatchObject({ to: getAddress(WALLET), value: '0' });
    expect(route.transactionData.gasLimit).toBe(sandboxChainParams('eip155:1')!.tokenDepositGas.toString());
    expectMarkerPayload(route.transactionData.data);
  });

  it('converts USDC (6 decimals) to DAI (18 decimals) exactly, charging the swap fee', async () => {
    const amount = 1_000_000_000n; // 1,000 USDC
    const route = await onlyRoute({
      fromToken: USDC_ETH,
      toChain: 'eip155:10',
      toToken: '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1',
      fromAmount: amount,
    });
    const fee = (amount * (RELAYER_FEE_BPS + SWAP_FEE_BPS) + 9_999n) / 10_000n + fillUnits('eip155:10', 6);
    expect(BigInt(route.toAmount)).toBe((amount - fee) * 10n ** 12n);
    expect(route.toAmount).toHaveLength(21);
    const back = await onlyRoute({
      fromChain: 'eip155:10',
      fromToken: '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1',
      toChain: 'eip155:1',
      toToken: USDC_ETH,
      fromAmount: 1000n * 10n ** 18n + 123n, // dust below USDC's 6 decimals is rounded away
    });
    const backFee = ((1000n * 10n ** 18n + 123n) * (RELAYER_FEE_BPS + SWAP_FEE_BPS) + 9_999n) / 10_000n;
    const backNet = 1000n * 10n ** 18n + 123n - backFee - fillUnits('eip155:1', 18);
    expect(BigInt(back.toAmount)).toBe(backNet / 10n ** 12n);
  });

  it('prices across assets from the snapshot (ETH to WBTC) and rounds USD to cents or finer', async () => {
    const route = await onlyRoute({ toChain: 'eip155:1', fromChain: 'eip155:42161', toToken: WBTC_ETH });
    const eth = Number(PRICE_SNAPSHOT.prices.ETH);
    const btc = Number(PRICE_SNAPSHOT.prices.BTC);
    expect(Number(route.toAmount) / 1e8).toBeCloseTo((eth / btc) * (1 - 31 / 10_000) - 1.2 / btc, 6);
    expect(route.transactionData.chainId).toBe(42161);
    expect(Number(route.gasCostUSD)).toBeLessThan(0.01);
  });

  it('is deterministic for a given clock, and only the timestamps move with the clock', async () => {
    const a = await provider.quote(request({ fromToken: USDC_ETH, toToken: USDC_BASE, fromAmount: 123_456_789n }));
    const b = await provider.quote(request({ fromToken: USDC_ETH, toToken: USDC_BASE, fromAmount: 123_456_789n }));
    expect(a).toEqual(b);
    const later = createSandboxProvider({ now: () => new Date(NOW.getTime() + 60_000) });
    const c = await later.quote(request({ fromToken: USDC_ETH, toToken: USDC_BASE, fromAmount: 123_456_789n }));
    expect(c[0]?.toAmount).toBe(a[0]?.toAmount);
    expect(c[0]?.transactionData.data).not.toBe(a[0]?.transactionData.data);
  });

  it('applies slippage to the minimum, rounded down', async () => {
    const tight = await onlyRoute({ slippage: 0.005 });
    const loose = await onlyRoute({ slippage: 0.1 });
    expect(loose.toAmount).toBe(tight.toAmount);
    const toAmount = BigInt(tight.toAmount);
    expect(BigInt(tight.toAmountMin)).toBe((toAmount * 995_000n) / 1_000_000n);
    expect(BigInt(loose.toAmountMin)).toBe((toAmount * 900_000n) / 1_000_000n);
    expect(BigInt(loose.toAmountMin)).toBeLessThan(BigInt(tight.toAmountMin));
    await expect(provider.quote(request({ slippage: 1.5 }))).rejects.toThrow(RangeError);
  });

  it('has no route for unknown or unpriced tokens, bad addresses, dust, or a same-chain transfer', async () => {
    const none = async (over: Partial<QuoteRequest>) => expect(await provider.quote(request(over))).toEqual([]);
    await none({ toToken: '0x000000000000000000000000000000000000dEaD' });
    await none({ fromChain: 'eip155:999999' });
    await none({ toChain: 'solana:mainnet-beta', toToken: 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn' });
    await none({ fromAddress: 'not-an-address' });
    await none({ toChain: 'solana:mainnet-beta', toToken: NATIVE_SOLANA, toAddress: RECIPIENT });
    await none({ fromToken: USDC_ETH, toToken: USDC_BASE, fromAmount: 10_000n }); // $0.01 < fill cost
    await none({ toChain: 'eip155:1' });
    await none({ fromAmount: 0n });
  });

  it('quotes to Solana with a Solana recipient, the transaction still a self-call', async () => {
    const route = await onlyRoute({ toChain: 'solana:mainnet-beta', toToken: USDC_SOL, toAddress: SOL_WALLET });
    expect(route.transactionData).toMatchObject({ to: getAddress(WALLET), value: '0', chainId: 1 });
    expect(route.tracking).toMatchObject({ toChain: 'solana:mainnet-beta' });
    const eth = Number(PRICE_SNAPSHOT.prices.ETH);
    expect(Number(route.toAmount) / 1e6).toBeCloseTo(eth * (1 - 31 / 10_000) - 0.01, 1);
  });

  it('builds an unsigned Solana transaction that only writes a memo, for an SPL source and a SOL source', async () => {
    const spl = await onlyRoute({
      fromChain: 'solana:mainnet-beta',
      fromToken: USDC_SOL,
      fromAddress: SOL_WALLET,
      fromAmount: 50_000_000n,
      toToken: USDC_BASE,
    });
    expect(spl.transactionData).toMatchObject({
      chainId: LIFI_SOLANA_CHAIN_ID,
      from: SOL_WALLET,
      to: SOL_WALLET,
      value: '0',
    });
    const tx = Transaction.from(Buffer.from(spl.transactionData.data, 'base64'));
    expect(tx.feePayer?.toBase58()).toBe(SOL_WALLET);
    // No transfer of any kind: the Memo program only logs its data.
    expect(tx.instructions.map((i) => i.programId.toBase58())).toEqual(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr']);
    expect(tx.instructions[0]?.data.toString('utf8').startsWith(SANDBOX_MARKER)).toBe(true);
    // Its only account is the signer, which pays the fee (so the message marks it writable).
    expect(tx.instructions[0]?.keys.map((k) => [k.pubkey.toBase58(), k.isSigner])).toEqual([[SOL_WALLET, true]]);
    expect(BigInt(spl.toAmount)).toBe(50_000_000n - (50_000_000n * RELAYER_FEE_BPS + 9_999n) / 10_000n - 20_000n);

    const sol = await onlyRoute({
      fromChain: 'solana:mainnet-beta',
      fromToken: NATIVE_SOLANA,
      fromAddress: SOL_WALLET,
      fromAmount: 2n * 10n ** 9n,
    });
    expect(sol.transactionData).toMatchObject({ to: SOL_WALLET, value: '0' });
    const solTx = Transaction.from(Buffer.from(sol.transactionData.data, 'base64'));
    expect(solTx.instructions.map((i) => i.programId.toBase58())).toEqual([
      'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
    ]);
  });

  it('pays no BTC to anyone: value 0 to the sender, with an OP_RETURN payload', async () => {
    const route = await onlyRoute({
      fromChain: 'bip122:000000000019d6689c085ae165831e93',
      fromToken: NATIVE_BITCOIN,
      fromAddress: BTC_WALLET,
      fromAmount: 10_000_000n,
      toChain: 'eip155:1',
      toToken: WBTC_ETH,
    });
    const tx = route.transactionData;
    expect(tx).toMatchObject({ chainId: LIFI_BITCOIN_CHAIN_ID, from: BTC_WALLET, to: BTC_WALLET, value: '0' });
    expect(isFamilyAddress('bitcoin', tx.to)).toBe(true);
    expectMarkerPayload(tx.data);
    expect(hexToString(MARKER_HEX)).toBe(SANDBOX_MARKER);
    expect(route.estimatedTimeSeconds).toBeGreaterThanOrEqual(1800);
  });

  it('reports status from its own tracking only: PENDING until the estimate, then DONE', async () => {
    const route = await onlyRoute({ toChain: 'solana:mainnet-beta', toToken: USDC_SOL, toAddress: SOL_WALLET });
    const txHash = `0x${'ab'.repeat(32)}`;
    expect(await provider.transferStatus({ txHash })).toBeNull();
    expect(
      await provider.transferStatus({ txHash, tracking: { provider: 'lifi', quotedAt: NOW.toISOString() } }),
    ).toBeNull();

    const at = (seconds: number) => createSandboxProvider({ now: () => new Date(NOW.getTime() + seconds * 1000) });
    const pending = await at(route.estimatedTimeSeconds - 1).transferStatus({ txHash, tracking: route.tracking });
    expect(pending).toMatchObject({ status: 'PENDING', bridge: 'sandbox' });
    expect(pending?.fromTx).toEqual({
      txHash,
      txLink: `https://etherscan.io/tx/${txHash}`,
      chainId: 1,
      gasUsed: route.transactionData.gasLimit,
      gasPrice: route.transactionData.gasPrice,
      timestamp: NOW.getTime() / 1000,
    });
    expect(pending?.toTx).toBeUndefined();

    const done = await at(route.estimatedTimeSeconds).transferStatus({ txHash, tracking: route.tracking });
    expect(done).toMatchObject({ status: 'DONE', bridge: 'sandbox' });
    expect(done?.toTx?.chainId).toBe(LIFI_SOLANA_CHAIN_ID);
    expect(done?.toTx?.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
    expect(done?.toTx?.txLink).toBe(`https://solscan.io/tx/${done?.toTx?.txHash}`);
    expect(done?.toTx?.timestamp).toBe(NOW.getTime() / 1000 + route.estimatedTimeSeconds);
  });
});
