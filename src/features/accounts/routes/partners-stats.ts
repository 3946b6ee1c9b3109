import type { PartnerStatsQuery, PartnerStatsQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';

type Data = PartnerStatsQuery;

/** GET /partners/stats: the partner's account and credits. Free. */
export const partnersStats = defineRoute<Data, PartnerStatsQueryVariables>({
  method: 'GET',
  url: '/partners/stats',
  label: 'GET /partners/stats',
  operation: /* GraphQL */ `
    query PartnerStats {
      stats { email name creditBalance creditUsage }
    }
  `,
  body: 'stats',
});
