import type { RestRoute } from '../../../platform/http/rest-route.js';
import { publicIdentityAddress } from './public-identity-address.js';
import { publicIdentityMetadata } from './public-identity-metadata.js';
import { publicIdentityName } from './public-identity-name.js';
import { publicIdentityNames } from './public-identity-names.js';

// biome-ignore lint/suspicious/noExplicitAny: routes differ in their data types
const alias = (route: RestRoute<any>, url: string): RestRoute<any> => ({
  ...route,
  url,
  label: `${route.method} ${url}`,
});

/**
 * The older paths Snowball's `snowstorm-sdk` calls (`/public-identity/{name,address,metadata,names}`),
 * served by the same operations as their `/identity/*` twins. `/public-identity/addresses` is the spec's
 * own path and is declared with its twin.
 */
// biome-ignore lint/suspicious/noExplicitAny: routes differ in their data types
export const publicIdentityAliases: RestRoute<any>[] = [
  alias(publicIdentityAddress, '/api/public/public-identity/address'),
  alias(publicIdentityName, '/api/public/public-identity/name'),
  alias(publicIdentityNames, '/api/public/public-identity/names'),
  alias(publicIdentityMetadata, '/api/public/public-identity/metadata/:name'),
];
