import { describe, expect, it } from 'vitest';
import type { ProviderRoute, QuoteRequest } from './providers/types.js';
import { compareRoutes, routeProblem } from './quotes.js';

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

describe('compareRoutes', () => {
  it('orders by toAmount as integers, not strings or floats, then fee, then time', () => {
    const big = route({ bridgeProvider: 'big', toAmount: '100000000000000000000000001' });
    const bigCheaper = route({
      bridgeProvider: 'big-cheap',
      toAmount: '100000000000000000000000001',
      feeCostUSD: '0.10',
    });
    const small = route({ bridgeProvider: 'small', toAmount: '99999999999999999999999999' });
    const fast = route({ bridgeProvider: 'fast', toAmount: '99999999999999999999999999', estimatedTimeSeconds: 5 });
    expect([small, big, fast, bigCheaper].sort(compareRoutes).map((r) => r.bridgeProvider)).toEqual([
      'big-cheap',
      'big',
      'fast',
      'small',
    ]);
  });
});
