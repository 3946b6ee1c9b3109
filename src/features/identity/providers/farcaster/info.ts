import type { NamingProviderInfo } from '../types.js';

// Apart from the provider, so that a process without FARCASTER_HUB_URL lists Farcaster (disabled) without loading it.

/** OP Mainnet, where Farcaster's ID registry holds each account's custody address. */
export const FARCASTER_CHAIN = 'eip155:10';

export const FARCASTER_INFO: NamingProviderInfo = {
  provider: 'farcaster',
  source: 'farcaster',
  providerName: 'Farcaster',
  // The icon of docs.farcaster.xyz, pinned to a commit so it cannot move under clients that cache it.
  logoURI:
    'https://raw.githubusercontent.com/farcasterxyz/docs/6dc47dbe597a3d5860dbf3df66393bacd3ccf378/docs/public/icon.png',
  url: 'https://farcaster.xyz',
  caip2Id: FARCASTER_CHAIN,
  // `alice.fcast.id` is the fname registry's own ENS name for the fname `alice` (CCIP-Read); `farcaster/`
  // names any username explicitly, `.eth` ones included (`farcaster/vitalik.eth`, since `.eth` is ENS's).
  suffixes: ['.fcast.id'],
  prefixes: ['farcaster/'],
  // An fname is a bare label: `alice` is asked of Farcaster as it is.
  bareLabel: 'label',
  // Its address → name lookup finds a username, not an ENSIP-19 primary name on OP Mainnet.
  evmPrimaryName: false,
};
