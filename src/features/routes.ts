import type { RestRoute } from '../platform/http/rest-route.js';
import { partnersKeys } from './accounts/routes/partners-keys.js';
import { partnersStats } from './accounts/routes/partners-stats.js';
import { partnersUsage } from './accounts/routes/partners-usage.js';
import { partnersBridgeChains } from './bridge/routes/partners-bridge-chains.js';
import { partnersBridgeQuote } from './bridge/routes/partners-bridge-quote.js';
import { partnersBridgeStatus } from './bridge/routes/partners-bridge-status.js';
import { partnersBridgeTokens } from './bridge/routes/partners-bridge-tokens.js';
import { partnersWebhooksDelete } from './bridge/routes/webhooks-delete.js';
import { partnersWebhooksDeliveries } from './bridge/routes/webhooks-deliveries.js';
import { partnersWebhooksList } from './bridge/routes/webhooks-list.js';
import { partnersWebhooksRegister } from './bridge/routes/webhooks-register.js';
import { partnersWebhooksTest } from './bridge/routes/webhooks-test.js';
import { partnersIdentitySearch } from './identity/routes/partners-identity-search.js';
import { publicIdentityAddress } from './resolution/routes/public-identity-address.js';
import { publicIdentityAddresses, publicIdentityAddressesSpec } from './resolution/routes/public-identity-addresses.js';
import { publicIdentityAliases } from './resolution/routes/public-identity-aliases.js';
import { publicIdentityMetadata } from './resolution/routes/public-identity-metadata.js';
import { publicIdentityName } from './resolution/routes/public-identity-name.js';
import { publicIdentityNames } from './resolution/routes/public-identity-names.js';

/** The REST route table: every documented path and the GraphQL operation behind it. */
// biome-ignore lint/suspicious/noExplicitAny: routes differ in their data types
export const restRoutes: RestRoute<any>[] = [
  partnersStats,
  partnersUsage,
  partnersKeys,
  partnersBridgeChains,
  partnersBridgeTokens,
  partnersBridgeQuote,
  partnersBridgeStatus,
  partnersWebhooksRegister,
  partnersWebhooksList,
  partnersWebhooksDelete,
  partnersWebhooksDeliveries,
  partnersWebhooksTest,
  partnersIdentitySearch,
  publicIdentityAddress,
  publicIdentityName,
  publicIdentityNames,
  publicIdentityMetadata,
  publicIdentityAddressesSpec,
  publicIdentityAddresses,
  ...publicIdentityAliases,
];
