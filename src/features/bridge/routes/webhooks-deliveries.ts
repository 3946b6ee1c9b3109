import type { WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';
import { DELIVERIES_DEFAULT, DELIVERIES_MAX } from '../webhooks/resolver.js';

/** GET /partners/webhooks/:id/deliveries?limit=: a webhook's deliveries, newest first. Free. */
export const partnersWebhooksDeliveries = defineRoute<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>({
  method: 'GET',
  url: '/partners/webhooks/:id/deliveries',
  label: 'GET /partners/webhooks/:id/deliveries',
  errors: partnerErrors,
  // The resolver's bounds, so the document says what either interface accepts.
  query: {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: DELIVERIES_MAX,
      default: DELIVERIES_DEFAULT,
      description: `At most this many deliveries, 1 to ${DELIVERIES_MAX}.`,
    },
  },
  variables: ({ params, query }) => ({
    id: (params as { id: string }).id,
    limit: (query as { limit: number }).limit,
  }),
  body: { deliveries: 'webhookDeliveries' },
  operation: /* GraphQL */ `
    query WebhookDeliveries($id: ID!, $limit: Int) {
      webhookDeliveries(id: $id, limit: $limit) {
        id txHash sequence state attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt
      }
    }
  `,
});
