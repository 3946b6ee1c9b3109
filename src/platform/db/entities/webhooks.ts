import { defineEntity, p } from '@mikro-orm/core';
import { Partner } from './accounts.js';

/** A partner's webhook target for bridge status changes, with the secret its deliveries are signed with. */
export const BridgeWebhook = defineEntity({
  name: 'BridgeWebhook',
  tableName: 'bridge_webhook',
  properties: {
    id: p.uuid().primary(),
    partner: p.manyToOne(Partner).ref().deleteRule('cascade').index('bridge_webhook_partner_index'),
    url: p.string().length(2048),
    secret: p.string().length(128),
    createdAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});

/** A transfer followed for a partner: the last status change announced, and when to look again. */
export const BridgeFollow = defineEntity({
  name: 'BridgeFollow',
  tableName: 'bridge_follow',
  properties: {
    partner: p.manyToOne(Partner).ref().primary().deleteRule('cascade').index(false),
    txHash: p.string().length(160).primary(),
    sandbox: p.boolean(),
    bridge: p.string().length(64).nullable(),
    lastKey: p.string().length(96).nullable(),
    lastAnswer: p.text().nullable(),
    seq: p.integer().default(0),
    checks: p.integer().default(0),
    nextCheckAt: p.datetime().nullable().index('bridge_follow_next_check_index'),
    createdAt: p.datetime(),
  },
});

/** One status change to deliver to one webhook, with its attempts so far. */
export const BridgeWebhookDelivery = defineEntity({
  name: 'BridgeWebhookDelivery',
  tableName: 'bridge_webhook_delivery',
  properties: {
    id: p.uuid().primary(),
    webhook: p.manyToOne(BridgeWebhook).ref().deleteRule('cascade').index(false),
    txHash: p.string().length(160),
    seq: p.integer(),
    payload: p.text(),
    state: p.enum(['pending', 'delivered', 'failed']).columnType('varchar(16)'),
    attempts: p.integer().default(0),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    nextAttemptAt: p.datetime(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [{ name: 'bridge_webhook_delivery_due_index', properties: ['state', 'nextAttemptAt'] }],
  uniques: [{ name: 'bridge_webhook_delivery_event_unique', properties: ['webhook', 'txHash', 'seq'] }],
});

/** An open `bridgeStatusChanged` subscription, in one of its partner's numbered slots (the cap). */
export const BridgeSubscription = defineEntity({
  name: 'BridgeSubscription',
  tableName: 'bridge_subscription',
  properties: {
    id: p.uuid().primary(),
    partner: p.manyToOne(Partner).ref().deleteRule('cascade').index(false),
    slot: p.integer(),
    txHash: p.string().length(160),
    owner: p.uuid().index('bridge_subscription_owner_index'),
    expiresAt: p.datetime().index('bridge_subscription_expires_at_index'),
    createdAt: p.datetime(),
  },
  indexes: [{ name: 'bridge_subscription_transfer_index', properties: ['partner', 'txHash'] }],
  uniques: [{ name: 'bridge_subscription_slot_unique', properties: ['partner', 'slot'] }],
});
