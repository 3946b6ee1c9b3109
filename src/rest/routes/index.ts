import type { RestRoute } from '../route.js';
import { partnersBridgeChains } from './partners.bridge.chains.js';
import { partnersBridgeQuote } from './partners.bridge.quote.js';
import { partnersBridgeStatus } from './partners.bridge.status.js';
import { partnersBridgeTokens } from './partners.bridge.tokens.js';
import { partnersIdentitySearch } from './partners.identity-search.js';
import { partnersStats } from './partners.stats.js';
import { publicIdentityAddress } from './public.identity-address.js';
import { publicIdentityAddresses, publicIdentityAddressesSpec } from './public.identity-addresses.js';
import { publicIdentityMetadata } from './public.identity-metadata.js';
import { publicIdentityName } from './public.identity-name.js';
import { publicIdentityNames } from './public.identity-names.js';

/** The REST route table: every documented path and the GraphQL operation behind it. */
// biome-ignore lint/suspicious/noExplicitAny: routes differ in their data types
export const restRoutes: RestRoute<any>[] = [
  partnersStats,
  partnersBridgeChains,
  partnersBridgeTokens,
  partnersBridgeQuote,
  partnersBridgeStatus,
  partnersIdentitySearch,
  publicIdentityAddress,
  publicIdentityName,
  publicIdentityNames,
  publicIdentityMetadata,
  publicIdentityAddressesSpec,
  publicIdentityAddresses,
];
