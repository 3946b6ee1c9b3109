export {
  caip2ToSquidChain,
  createSquidProvider,
  SQUID_DEFAULT_BASE_URL,
  SQUID_NATIVE,
  type SquidProviderOptions,
  squidChainToCaip2,
} from './provider.js';
