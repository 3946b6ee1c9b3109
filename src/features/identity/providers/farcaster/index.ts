export { FARCASTER_CHAIN, FARCASTER_INFO } from './info.js';
export { createFarcasterProvider, type FarcasterProviderOptions } from './provider.js';
export { type FarcasterUsername, parseFarcasterUsername } from './username.js';
