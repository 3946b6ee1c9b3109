import type { NamingProviderInfo } from '../types.js';

// Apart from the provider, so that a process without a UNS RPC URL lists Unstoppable Domains (disabled)
// without loading viem.

export const UNS_POLYGON_CAIP2 = 'eip155:137';
export const UNS_ETHEREUM_CAIP2 = 'eip155:1';

/**
 * The TLDs UNS mints, as MintingManager's `initialize` registers them (unstoppabledomains/uns,
 * `contracts/MintingManager.sol` @ 009332df, VERSION 0.4.17). `.crypto` first: it is UD's original
 * TLD, and the one a bare label is looked up under.
 */
export const UNS_TLDS = [
  'crypto',
  'wallet',
  'x',
  'nft',
  'blockchain',
  'bitcoin',
  '888',
  'dao',
  'zil',
  'polygon',
  'unstoppable',
  'klever',
  'hi',
  'kresus',
  'anime',
  'manga',
  'binanceus',
  'realm',
  'go',
] as const;

export const UNSTOPPABLE_INFO: NamingProviderInfo = {
  provider: 'unstoppable',
  source: 'unstoppable',
  providerName: 'Unstoppable Domains',
  // The logo of UD's developer documentation site.
  logoURI: 'https://docs.unstoppabledomains.com/images/logo.png',
  url: 'https://unstoppabledomains.com',
  // Most UNS names live on Polygon, where the resolution library looks first; a record names its own chain.
  caip2Id: UNS_POLYGON_CAIP2,
  suffixes: UNS_TLDS.map((tld) => `.${tld}`),
  reverseCaip2Ids: [UNS_POLYGON_CAIP2, UNS_ETHEREUM_CAIP2],
};
