import type { WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/** GET /partners/webhooks/:id/deliveries?limit=: a webhook's deliveries, newest first. Free. */
export const partnersWebhooksDeliveries = defineRoute<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>({
  method: 'GET',
  url: '/partners/webhooks/:id/deliveries',
  label: 'GET /partners/webhooks/:id/deliveries',
  errors: partnerErrors,
  // Checked by the resolver (1 to 200), so REST and GraphQL refuse a bad limit in the same words.
  query: { limit: { type: 'string', description: 'At most this many deliveries, 1 to 200 (default 50).' } },
  variables: ({ params, query }) => {
    const { limit } = (query ?? {}) as { limit?: string };
    return {
      id: (params as { id: string }).id,
      ...(limit === undefined ? {} : { limit: /^\d{1,4}$/.test(limit) ? Number(limit) : -1 }),
    };
  },
  body: { deliveries: 'webhookDeliveries' },
  operation: /* GraphQL */ `
    query WebhookDeliveries($id: ID!, $limit: Int) {
      webhookDeliveries(id: $id, limit: $limit) {
        id txHash sequence state attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt
      }
    }
  `,
});
