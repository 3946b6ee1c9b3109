export { MAYAN_CHAINS, type MayanChain, mayanChainByCaip2 } from './chains.js';
export {
  createMayanProvider,
  MAYAN_DEFAULT_EXPLORER_URL,
  MAYAN_DEFAULT_PRICE_URL,
  type MayanProviderOptions,
} from './provider.js';
