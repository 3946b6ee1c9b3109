export { SPOKE_POOL_DEPOSIT_V3_ABI, WRAPPED_NATIVE } from './contracts.js';
export { ACROSS_DEFAULT_BASE_URL, type AcrossProviderOptions, createAcrossProvider } from './provider.js';
