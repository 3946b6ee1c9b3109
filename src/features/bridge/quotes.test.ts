import { encodeFunctionData, erc20Abi } from 'viem';
import { describe, expect, it } from 'vitest';
import { withApproval } from './approval.js';
import type { ProviderRoute, QuoteRequest } from './providers/types.js';
import { bridgeAllowed, compareRoutes, routeProblem } from './quotes.js';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const request: QuoteRequest = {
  fromChain: 'eip155:1',
  toChain: 'eip155:8453',
  fromToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  fromAmount: 1_000_000n,
  fromAddress: WALLET,
  toAddress: WALLET,
  slippage: 0.03,
  order: 'CHEAPEST',
  allowBridges: [],
  denyBridges: [],
  maxRoutes: 5,
};
const route = (
  over: Partial<ProviderRoute> = {},
  tx: Partial<ProviderRoute['transactionData']> = {},
): ProviderRoute => ({
  fromChain: 'eip155:1',
  toChain: 'eip155:8453',
  fromToken: request.fromToken.toLowerCase(),
  toToken: request.toToken,
  fromAmount: '1000000',
  toAmount: '990000',
  toAmountMin: '980000',
  gasCostUSD: '1.00',
  feeCostUSD: '0.50',
  fromAmountUSD: '1.00',
  toAmountUSD: '0.99',
  bridgeProvider: 'x',
  aggregator: 'agg',
  estimatedTimeSeconds: 60,
  transactionData: {
    from: WALLET.toLowerCase(),
    to: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5',
    data: '0xabcd',
    value: '0',
    gasLimit: '0',
    gasPrice: '0',
    chainId: 1,
    ...tx,
  },
  ...over,
});

describe('routeProblem', () => {
  it('accepts a route doing what was asked, EVM addresses compared case-insensitively', () => {
    expect(routeProblem(route(), request)).toBeUndefined();
  });

  it.each([
    ['another source chain', route({ fromChain: 'eip155:10' })],
    ['another token', route({ toToken: '0x4200000000000000000000000000000000000006' })],
    ['another amount', route({ fromAmount: '999999' })],
    ['a minimum above the amount', route({ toAmountMin: '990001' })],
    ['a non-integer amount', route({ toAmount: '1e6' })],
    ['another sender', route({}, { from: '0x0000000000000000000000000000000000000001' })],
    ['another chain id', route({}, { chainId: 8453 })],
    ['odd-length calldata', route({}, { data: '0xabc' })],
  ])('refuses %s', (_what, r) => {
    expect(routeProblem(r, request)).toEqual(expect.any(String));
  });
});

const SPENDER = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';
const approve = (spender: string, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender as `0x${string}`, amount] });

describe('upstream-built approvals', () => {
  const approval = (over: Partial<ProviderRoute['transactionData']> = {}) => ({
    from: WALLET,
    to: request.fromToken,
    data: approve(SPENDER, 1_000_000n),
    value: '0',
    gasLimit: '0',
    gasPrice: '0',
    chainId: 1,
    ...over,
  });

  it('accepts approve(spender, ≥ fromAmount) of the source token from the wallet', () => {
    expect(routeProblem(route({ approvalAddress: SPENDER, approvalTransaction: approval() }), request)).toBeUndefined();
  });

  it.each([
    ['another token', approval({ to: request.toToken })],
    ['another sender', approval({ from: SPENDER })],
    ['too small an amount', approval({ data: approve(SPENDER, 999_999n) })],
    ['another spender', approval({ data: approve(WALLET, 1_000_000n) })],
    ['not an approve call', approval({ data: '0xabcd' })],
  ])('refuses an approval for %s', (_what, a) => {
    expect(routeProblem(route({ approvalAddress: SPENDER, approvalTransaction: a }), request)).toEqual(
      expect.any(String),
    );
  });
});

describe('withApproval', () => {
  it('builds approve(approvalAddress, fromAmount) for an ERC-20 source, none for a native one', () => {
    const built = withApproval(route({ approvalAddress: SPENDER }));
    expect(built.approvalTransaction).toEqual({
      from: WALLET.toLowerCase(),
      to: request.fromToken,
      data: approve(SPENDER, 1_000_000n),
      value: '0',
      gasLimit: '0',
      gasPrice: '0',
      chainId: 1,
    });
    const native = withApproval(
      route({ fromToken: '0x0000000000000000000000000000000000000000', approvalAddress: SPENDER }),
    );
    expect(native.approvalAddress).toBeUndefined();
    expect(native.approvalTransaction).toBeUndefined();
    const enough = withApproval(route({ approvalAddress: SPENDER, tracking: { allowanceSufficient: true } }));
    expect(enough.approvalTransaction).toBeUndefined();
  });
});

describe('bridgeAllowed', () => {
  it('applies allow and deny lists case-blind', () => {
    const r = route({ bridgeProvider: 'stargatev2' });
    expect(bridgeAllowed(r, { ...request, allowBridges: ['stargateV2'] })).toBe(true);
    expect(bridgeAllowed(r, { ...request, allowBridges: ['across'] })).toBe(false);
    expect(bridgeAllowed(r, { ...request, denyBridges: ['StargateV2'] })).toBe(false);
    expect(bridgeAllowed(r, request)).toBe(true);
  });
});

describe('compareRoutes', () => {
  it('FASTEST ranks by time, then by amount; CHEAPEST by amount net of gas in USD', () => {
    const slowRich = route({
      bridgeProvider: 'slow',
      toAmount: '995000',
      toAmountUSD: '0.995',
      estimatedTimeSeconds: 600,
    });
    const fastPoor = route({ bridgeProvider: 'fast', toAmount: '990000', estimatedTimeSeconds: 10 });
    const gasHeavy = route({ bridgeProvider: 'gas', toAmount: '999000', toAmountUSD: '0.999', gasCostUSD: '0.5' });
    expect(
      [slowRich, fastPoor, gasHeavy].sort((a, b) => compareRoutes(a, b, 'FASTEST')).map((r) => r.bridgeProvider),
    ).toEqual(['fast', 'gas', 'slow']);
    const byCost = [gasHeavy, fastPoor, slowRich].sort((a, b) => compareRoutes(a, b, 'CHEAPEST'));
    // Net USD kept: gas 0.999 − 0.5, slow 0.995 − 1.00, fast 0.99 − 1.00.
    expect(byCost.map((r) => r.bridgeProvider)).toEqual(['gas', 'slow', 'fast']);
  });

  it('orders by toAmount as integers, not strings or floats, then fee, then time', () => {
    const noUsd = { toAmountUSD: '0' };
    const big = route({ ...noUsd, bridgeProvider: 'big', toAmount: '100000000000000000000000001' });
    const bigCheaper = route({
      ...noUsd,
      bridgeProvider: 'big-cheap',
      toAmount: '100000000000000000000000001',
      feeCostUSD: '0.10',
    });
    const small = route({ ...noUsd, bridgeProvider: 'small', toAmount: '99999999999999999999999999' });
    const fast = route({
      ...noUsd,
      bridgeProvider: 'fast',
      toAmount: '99999999999999999999999999',
      estimatedTimeSeconds: 5,
    });
    expect([small, big, fast, bigCheaper].sort((a, b) => compareRoutes(a, b)).map((r) => r.bridgeProvider)).toEqual([
      'big-cheap',
      'big',
      'fast',
      'small',
    ]);
  });
});
