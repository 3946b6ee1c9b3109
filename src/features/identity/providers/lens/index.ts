export { LENS_CHAIN, LENS_INFO } from './info.js';
export { createLensProvider, type LensProviderOptions } from './provider.js';
export { parseLensUsername } from './username.js';
