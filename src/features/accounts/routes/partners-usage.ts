import type { PartnerUsageQuery, PartnerUsageQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/** GET /partners/usage?from=&to=&granularity=day|hour: credits charged per period and operation. Free. */
export const partnersUsage = defineRoute<PartnerUsageQuery, PartnerUsageQueryVariables>({
  method: 'GET',
  url: '/partners/usage',
  label: 'GET /partners/usage',
  input: { from: 'query', constraints: { from: { maxLength: 40 }, to: { maxLength: 40 } } },
  errors: partnerErrors,
  operation: /* GraphQL */ `
    query PartnerUsage($from: String, $to: String, $granularity: UsageGranularity) {
      usage(from: $from, to: $to, granularity: $granularity) {
        from to granularity totalCredits
        periods { period operation credits calls }
      }
    }
  `,
  body: 'usage',
});
