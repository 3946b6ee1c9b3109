export { caip2ToRelayChain, RELAY_SOLANA_CHAIN_ID, relayChainToCaip2 } from './chains.js';
export { createRelayProvider, RELAY_DEFAULT_BASE_URL, type RelayProviderOptions } from './provider.js';
