import type { RestRoute } from '../route.js';
import { partnersBridgeChains } from './partners.bridge.chains.js';
import { partnersBridgeQuote } from './partners.bridge.quote.js';
import { partnersBridgeStatus } from './partners.bridge.status.js';
import { partnersBridgeTokens } from './partners.bridge.tokens.js';
import { partnersStats } from './partners.stats.js';

/** The REST route table: every documented path and the GraphQL operation behind it. */
// biome-ignore lint/suspicious/noExplicitAny: routes differ in their data types
export const restRoutes: RestRoute<any>[] = [
  partnersStats,
  partnersBridgeChains,
  partnersBridgeTokens,
  partnersBridgeQuote,
  partnersBridgeStatus,
];
