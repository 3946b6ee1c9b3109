import type { RegisterWebhookMutation, RegisterWebhookMutationVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

/**
 * POST /partners/webhooks {url}: registers an https URL for the status changes of the caller's transfers.
 * The answer carries the signing secret, shown this once. Free; a bad or private URL is a free 400.
 */
export const partnersWebhooksRegister = defineRoute<RegisterWebhookMutation, RegisterWebhookMutationVariables>({
  method: 'POST',
  url: '/partners/webhooks',
  label: 'POST /partners/webhooks',
  input: { from: 'body', constraints: { url: { minLength: 1, maxLength: 2048 } } },
  errors: partnerErrors,
  body: 'registerWebhook',
  operation: /* GraphQL */ `
    mutation RegisterWebhook($url: String!) {
      registerWebhook(url: $url) { id url createdAt secret }
    }
  `,
});
