import type { Address } from 'viem';

/**
 * SpokePool `depositV3`, as Across documents it for depositors ("Selected Contract Functions") and as
 * the V3 SpokePool exposes it. Deposits are payable: sending native ETH means `msg.value` equals
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
 * Origin SpokePool per chain, from Across's contract address reference (docs.across.to/reference/
 * contract-addresses). Used only when /suggested-fees does not name `spokePoolAddress`.
 */
export const SPOKE_POOLS: Readonly<Record<number, Address>> = {
  1: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5',
  10: '0x6f26Bf09B1C792e3228e5467807a900A503c0281',
  56: '0x4e8E101924eDE233C13e2D8622DC8aED2872d505',
  137: '0x9295ee1d8C5b022Be115A2AD3c30C72E34e7F096',
  8453: '0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64',
  42161: '0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A',
};

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
