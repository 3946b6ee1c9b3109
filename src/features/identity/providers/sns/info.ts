import type { NamingProviderInfo } from '../types.js';

// Kept apart from the provider so that a process without SOLANA_RPC_URL can list SNS (as disabled) and
// own the `.sol` suffix without loading @solana/web3.js and Bonfida's SDK.

/** The suffix SNS names carry. */
export const SOL_SUFFIX = '.sol';

/** CAIP-2 id of Solana mainnet, where every `.sol` name lives. */
export const SOLANA_MAINNET = 'solana:mainnet-beta';

export const SNS_PROVIDER_INFO: NamingProviderInfo = {
  provider: 'sns',
  source: 'sns',
  providerName: 'Solana Name Service',
  // Pinned to a commit so the logo cannot move under clients that cache it.
  logoURI:
    'https://raw.githubusercontent.com/SolanaNameService/sns-sdk/be56da7c4d90475f1152f573b44e14faf33dc414/dev-docs/static/img/logo.svg',
  url: 'https://www.sns.id',
  caip2Id: SOLANA_MAINNET,
  suffixes: [SOL_SUFFIX],
};
