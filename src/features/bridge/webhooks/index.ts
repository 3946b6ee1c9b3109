import type { WebhookService } from './service.js';

export { WebhooksResolver } from './resolver.js';
export { WebhookService } from './service.js';

declare module '../../../platform/services.js' {
  interface Services {
    /** Bridge status pushed to partners: webhooks, followed transfers, subscriptions. */
    webhooks: WebhookService;
  }
}
