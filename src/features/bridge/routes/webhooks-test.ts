import type { TestWebhookMutation, TestWebhookMutationVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/** POST /partners/webhooks/:id/test: sends one signed test event now and says what it answered. Free. */
export const partnersWebhooksTest = defineRoute<TestWebhookMutation, TestWebhookMutationVariables>({
  method: 'POST',
  url: '/partners/webhooks/:id/test',
  label: 'POST /partners/webhooks/:id/test',
  input: { from: 'params', constraints: { id: { maxLength: 64 } } },
  errors: partnerErrors,
  body: 'testWebhook',
  operation: /* GraphQL */ `
    mutation TestWebhook($id: ID!) {
      testWebhook(id: $id) { delivered statusCode error sentAt }
    }
  `,
});
