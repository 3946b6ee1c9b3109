import type { NamingProviderInfo } from '../types.js';

// Kept apart from the provider so that a process without APTOS_RPC_URL can list Aptos Names (as disabled)
// and own the `.apt` suffix without loading the Aptos SDK.

/** The suffix Aptos Names carry. */
export const APT_SUFFIX = '.apt';

/** CAIP-2 id of Aptos mainnet (chain id 1), where every `.apt` name lives. */
export const APTOS_MAINNET = 'aptos:1';

/** The ANS router on Aptos mainnet (`@aptos-labs/ts-sdk` src/internal/ans.ts). */
export const ANS_MAINNET_ROUTER = '0x867ed1f6bf916171b1de3ee92849b8978b7d1b9e0a8cc982a3d19d535dfd9c0c';

export const APTOS_NAMES_INFO: NamingProviderInfo = {
  provider: 'aptos-names',
  source: 'ans',
  providerName: 'Aptos Names',
  // ANS publishes no standalone logo URL; this is the avatar of Aptos Labs, which runs the service.
  logoURI: 'https://github.com/aptos-labs.png',
  url: 'https://www.aptosnames.com',
  caip2Id: APTOS_MAINNET,
  suffixes: [APT_SUFFIX],
};
