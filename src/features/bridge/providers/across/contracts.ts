import type { Address } from 'viem';

/**
 * SpokePool `depositV3`, as Across documents it for depositors ("Selected Contract Functions") and as
 * the V3 SpokePool exposes it. The Swap API builds this call itself; tests decode its calldata with it. Deposits are payable: sending native ETH means `msg.value` equals
 * `inputAmount` with `inputToken` set to the wrapped native token.
 */
export const SPOKE_POOL_DEPOSIT_V3_ABI = [
  {
    type: 'function',
    name: 'depositV3',
    stateMutability: 'payable',
    inputs: [
      { name: 'depositor', type: 'address' },
      { name: 'recipient', type: 'address' },
      { name: 'inputToken', type: 'address' },
      { name: 'outputToken', type: 'address' },
      { name: 'inputAmount', type: 'uint256' },
      { name: 'outputAmount', type: 'uint256' },
      { name: 'destinationChainId', type: 'uint256' },
      { name: 'exclusiveRelayer', type: 'address' },
      { name: 'quoteTimestamp', type: 'uint32' },
      { name: 'fillDeadline', type: 'uint32' },
      { name: 'exclusivityDeadline', type: 'uint32' },
      { name: 'message', type: 'bytes' },
    ],
    outputs: [],
  },
] as const;

/**
 * Wrapped native token per chain. Across's API takes the wrapped address for a native asset ("For
 * ETH, use the wrapped address, like WETH") and its SpokePool wraps `msg.value` itself.
 */
export const WRAPPED_NATIVE: Readonly<Record<number, Address>> = {
  1: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  10: '0x4200000000000000000000000000000000000006',
  56: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  137: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
  8453: '0x4200000000000000000000000000000000000006',
  42161: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
  43114: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7',
};
