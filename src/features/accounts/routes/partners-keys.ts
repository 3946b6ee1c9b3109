import type { PartnerKeysQuery, PartnerKeysQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/** GET /partners/keys: the caller's API keys (prefix, label, created, last used, revoked). Free. */
export const partnersKeys = defineRoute<PartnerKeysQuery, PartnerKeysQueryVariables>({
  method: 'GET',
  url: '/partners/keys',
  label: 'GET /partners/keys',
  errors: partnerErrors,
  operation: /* GraphQL */ `
    query PartnerKeys {
      apiKeys { prefix label createdAt lastUsedAt revokedAt }
    }
  `,
  body: { keys: 'apiKeys' },
});
