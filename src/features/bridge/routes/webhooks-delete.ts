import type { DeleteWebhookMutation, DeleteWebhookMutationVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/** DELETE /partners/webhooks/:id: stops a webhook; its pending deliveries are dropped. Free. */
export const partnersWebhooksDelete = defineRoute<DeleteWebhookMutation, DeleteWebhookMutationVariables>({
  method: 'DELETE',
  url: '/partners/webhooks/:id',
  label: 'DELETE /partners/webhooks/:id',
  input: { from: 'params', constraints: { id: { maxLength: 64 } } },
  errors: partnerErrors,
  body: 'deleteWebhook',
  operation: /* GraphQL */ `
    mutation DeleteWebhook($id: ID!) {
      deleteWebhook(id: $id) { id url createdAt }
    }
  `,
});
