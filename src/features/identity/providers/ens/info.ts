import type { NamingProviderInfo } from '../types.js';

// Apart from the provider, so that a process without ENS_RPC_URL lists ENS (disabled) without loading it.
export const ENS_INFO: NamingProviderInfo = {
  provider: 'ens',
  source: 'ens',
  providerName: 'ENS',
  // The ENS token logo as published in Uniswap's default token list.
  logoURI: 'https://assets.coingecko.com/coins/images/19785/thumb/acatxTm8_400x400.jpg?1635850140',
  url: 'https://ens.domains',
  caip2Id: 'eip155:1',
  suffixes: ['.eth'],
};
