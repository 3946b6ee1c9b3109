import type { NamingProviderInfo } from '../types.js';

// Apart from the provider, so that a process without SPACE ID's RPC URLs lists it (disabled) without
// loading viem's ENS tables.

export const BSC_CHAIN_ID = 56;
export const ARBITRUM_CHAIN_ID = 42161;

export const SPACEID_INFO: NamingProviderInfo = {
  provider: 'spaceid',
  source: 'spaceid',
  providerName: 'SPACE ID',
  // The SPACE ID (ID) token logo as CoinGecko serves it.
  logoURI: 'https://assets.coingecko.com/coins/images/29468/small/id.png?1679112555',
  url: 'https://space.id',
  // `.bnb` is SPACE ID's first TLD; an `.arb` record names Arbitrum as its chain.
  caip2Id: `eip155:${BSC_CHAIN_ID}`,
  suffixes: ['.bnb', '.arb'],
  reverseCaip2Ids: [`eip155:${BSC_CHAIN_ID}`, `eip155:${ARBITRUM_CHAIN_ID}`],
};
