import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { badInput } from '../../../platform/errors.js';
import { type RequestContext, requirePartner } from '../../../platform/graphql/context.js';
import { Price } from '../../../platform/graphql/credits-directive.js';
import { type StatusChange, SUBSCRIPTION_TRANSPORT, type SubscriptionTransport } from './service.js';
import { SubscriptionCharge } from './subscription-charge.js';
import { BridgeStatusChange, Webhook, WebhookDelivery, WebhookRegistration, WebhookTest } from './types.js';

/** Deliveries one `webhookDeliveries` call answers: by default, and at most (the REST route's bounds too). */
export const DELIVERIES_DEFAULT = 50;
export const DELIVERIES_MAX = 200;

@Resolver()
export class WebhooksResolver {
  @Mutation(() => WebhookRegistration, {
    description:
      'Registers an https URL to receive the status changes of your transfers (signed POSTs, retried for 24 ' +
      'hours). Private, loopback and link-local hosts are refused. The secret is shown only here. Free.',
  })
  @Price(0)
  async registerWebhook(@Ctx() ctx: RequestContext, @Arg('url') url: string): Promise<WebhookRegistration> {
    return ctx.services.webhooks.register(requirePartner(ctx).id, url);
  }

  @Mutation(() => Webhook, { description: 'Stops a webhook; pending deliveries to it are dropped. Free.' })
  @Price(0)
  async deleteWebhook(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string): Promise<Webhook> {
    return ctx.services.webhooks.remove(requirePartner(ctx).id, id);
  }

  @Mutation(() => WebhookTest, {
    description:
      'Sends one signed `test` event (`{"type":"test","webhookId","sentAt"}`, signed as status changes are) ' +
      'to a webhook now and says what it answered; it is not retried or recorded. Free.',
  })
  @Price(0)
  async testWebhook(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string): Promise<WebhookTest> {
    return ctx.services.webhooks.sendTest(requirePartner(ctx).id, id);
  }

  @Query(() => [Webhook], { description: 'Your webhooks. Free.' })
  @Price(0)
  async webhooks(@Ctx() ctx: RequestContext): Promise<Webhook[]> {
    return ctx.services.webhooks.list(requirePartner(ctx).id);
  }

  @Query(() => [WebhookDelivery], { description: "A webhook's deliveries, newest first. Free." })
  @Price(0)
  async webhookDeliveries(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID) id: string,
    @Arg('limit', () => Int, { defaultValue: DELIVERIES_DEFAULT, description: `1 to ${DELIVERIES_MAX}.` })
    limit: number,
  ): Promise<WebhookDelivery[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > DELIVERIES_MAX) {
      throw badInput(`limit must be 1 to ${DELIVERIES_MAX}, got ${limit}`);
    }
    return ctx.services.webhooks.deliveries(requirePartner(ctx).id, id, limit);
  }

  @Subscription(() => BridgeStatusChange, {
    description:
      'Status changes of a transfer (where it stands first, then each change until DONE or FAILED). Served ' +
      'over graphql-ws on /graphql, the API key in connectionParams (`x-api-key`). Costs what bridgeStatus ' +
      'costs: held when it starts, charged once its first change is sent, released if it ends before; later ' +
      'changes are free. Open subscriptions and followed transfers are capped per partner.',
    subscribe: ({ args, context }) => {
      const ctx = context as RequestContext;
      const partner = requirePartner(ctx);
      // Only the WebSocket transport can tell when an event reached the socket, which is when it is charged.
      const transport = ctx.memo.get(SUBSCRIPTION_TRANSPORT) as SubscriptionTransport | undefined;
      if (!transport) throw badInput('Subscriptions are served over graphql-ws: open a WebSocket to /graphql');
      return ctx.services.webhooks.subscribe(partner, String(args.txHash), {
        transport,
        open: () => SubscriptionCharge.open(ctx.services.ledger, partner.id, transport.price, ctx.requestId, ctx.log),
      });
    },
  })
  // What a start costs is bridgeStatus's price, read from the price table by the transport (ws.ts):
  // declared once, there. This entry prices nothing.
  @Price(0)
  bridgeStatusChanged(
    @Root() change: StatusChange,
    @Arg('txHash', { description: 'Source-chain transaction hash.' }) _txHash: string,
  ): BridgeStatusChange {
    return change;
  }
}
