import type { NamingProviderInfo } from '../types.js';

// Apart from the provider, so that a process without BASE_RPC_URL lists Basenames (disabled) without loading it.

export const BASE_CHAIN_ID = 8453;

export const BASENAMES_INFO: NamingProviderInfo = {
  provider: 'basenames',
  source: 'basenames',
  providerName: 'Basenames',
  // The logo Base publishes in the Basenames contract metadata.
  logoURI: 'https://www.base.org/images/basenames/contract-uri/logo.png',
  url: 'https://www.base.org/names',
  caip2Id: `eip155:${BASE_CHAIN_ID}`,
  suffixes: ['.base.eth'],
};
