export { caip2ToDebridgeChain, DEBRIDGE_SOLANA_CHAIN_ID, debridgeChainToCaip2 } from './chains.js';
export { createDebridgeProvider, DEBRIDGE_DEFAULT_BASE_URL, type DebridgeProviderOptions } from './provider.js';
