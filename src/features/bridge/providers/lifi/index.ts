export { caip2ToLifiChain, LIFI_BITCOIN_CHAIN_ID, LIFI_SOLANA_CHAIN_ID, lifiChainToCaip2 } from './chains.js';
export { createLifiProvider, LIFI_DEFAULT_BASE_URL, type LifiProviderOptions } from './provider.js';
