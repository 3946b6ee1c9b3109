import type { NamingProviderInfo } from '../types.js';

// Kept apart from the provider so that a process without SUI_GRAPHQL_URL can list SuiNS (as disabled)
// and own the `.sui` suffix.

/** The suffix SuiNS names carry. */
export const SUI_SUFFIX = '.sui';

/** CAIP-2 id of Sui mainnet, where every `.sui` name lives. */
export const SUI_MAINNET = 'sui:mainnet';

export const SUINS_INFO: NamingProviderInfo = {
  provider: 'suins',
  source: 'suins',
  providerName: 'SuiNS',
  // The icon SuiNS serves for its own token, NS.
  logoURI: 'https://token-image.suins.io/icon.svg',
  url: 'https://suins.io',
  caip2Id: SUI_MAINNET,
  suffixes: [SUI_SUFFIX],
};
