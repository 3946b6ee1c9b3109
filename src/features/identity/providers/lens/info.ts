import type { NamingProviderInfo } from '../types.js';

// Apart from the provider, so that a process without LENS_API_URL lists Lens (disabled) without loading it.

/** Lens Chain mainnet, where Lens Accounts and usernames live. */
export const LENS_CHAIN = 'eip155:232';

export const LENS_INFO: NamingProviderInfo = {
  provider: 'lens',
  source: 'lens',
  providerName: 'Lens',
  // Lens's brand kit, pinned to a commit so the logo cannot move under clients that cache it.
  logoURI:
    'https://raw.githubusercontent.com/lens-protocol/brand-kit/c5fdf703aa6bf34e9557d17262999cb1d13f2a38/01%20Logo/SVG/Icon-Black.svg',
  url: 'https://lens.xyz',
  caip2Id: LENS_CHAIN,
  // Usernames of the global namespace, written `stani.lens` or as Lens writes them, `lens/stani`.
  suffixes: ['.lens'],
  prefixes: ['lens/'],
  // Its address → name lookup finds a username, not an ENSIP-19 primary name on Lens Chain.
  evmPrimaryName: false,
};
