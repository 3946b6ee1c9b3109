import type { PartnerStatsQuery, PartnerStatsQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';

type Data = PartnerStatsQuery;

/** GET /partners/stats: the partner's account and credits. Free. */
export const partnersStats = defineRoute<Data, PartnerStatsQueryVariables>({
  method: 'GET',
  url: '/partners/stats',
  label: 'GET /partners/stats',
  schema: {
    response: {
      200: {
        type: 'object',
        required: ['email', 'name', 'creditBalance', 'creditUsage'],
        properties: {
          email: { type: 'string' },
          name: { type: 'string' },
          creditBalance: { type: 'number' },
          creditUsage: { type: 'number' },
        },
      },
    },
  },
  operation: /* GraphQL */ `
    query PartnerStats {
      stats { email name creditBalance creditUsage }
    }
  `,
  variables: () => ({}),
  respond: (data) => data.stats,
});
