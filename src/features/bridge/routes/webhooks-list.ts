import type { WebhooksQuery, WebhooksQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/** GET /partners/webhooks: the caller's webhooks (never their secrets). Free. */
export const partnersWebhooksList = defineRoute<WebhooksQuery, WebhooksQueryVariables>({
  method: 'GET',
  url: '/partners/webhooks',
  label: 'GET /partners/webhooks',
  errors: partnerErrors,
  body: { webhooks: 'webhooks' },
  operation: /* GraphQL */ `
    query Webhooks {
      webhooks { id url createdAt }
    }
  `,
});
