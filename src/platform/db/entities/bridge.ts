import { defineEntity, p } from '@mikro-orm/core';
import { Partner } from './accounts.js';

/** One provider's answer for one catalogue resource ("chains" or "tokens:<caip2Id>"), kept as JSON text. */
export const BridgeCatalogue = defineEntity({
  name: 'BridgeCatalogue',
  tableName: 'bridge_catalogue',
  properties: {
    provider: p.string().length(64).primary(),
    resource: p.string().length(160).primary(),
    payload: p.text(),
    fetchedAt: p.datetime(),
  },
});

/** A quoted route, so a later status call goes to the provider that quoted it. */
export const BridgeRoute = defineEntity({
  name: 'BridgeRoute',
  tableName: 'bridge_route',
  properties: {
    id: p.uuid().primary(),
    partner: p.manyToOne(Partner).ref().nullable().deleteRule('set null').index(false),
    provider: p.string().length(64),
    fromChain: p.string().length(80),
    toChain: p.string().length(80),
    request: p.text(),
    route: p.text(),
    tracking: p.text().nullable(),
    txFingerprint: p.string().length(66).nullable().index('bridge_route_tx_fingerprint_index'),
    // Unique per partner (below): one partner's link never blocks another's.
    txHash: p.string().length(160).nullable(),
    linkedBy: p.enum(['chain', 'partner']).columnType('varchar(16)').nullable(),
    linkedAt: p.datetime().nullable(),
    createdAt: p.datetime().index('bridge_route_created_at_index'),
  },
  uniques: [{ name: 'bridge_route_tx_hash_partner_unique', properties: ['txHash', 'partner'] }],
});

/** The last known status of one transfer as one provider reported it. */
export const BridgeTransfer = defineEntity({
  name: 'BridgeTransfer',
  tableName: 'bridge_transfer',
  properties: {
    txHash: p.string().length(160).primary(),
    provider: p.string().length(64).primary(),
    route: p.manyToOne(BridgeRoute).ref().nullable().deleteRule('set null').index(false),
    status: p.enum(['NOT_FOUND', 'PENDING', 'DONE', 'FAILED']).columnType('varchar(16)'),
    substatus: p.string().length(64).nullable(),
    answer: p.text(),
    terminal: p.boolean().default(false),
    firstSeenAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** Every status change of a transfer, in order. */
export const BridgeStatusHistory = defineEntity({
  name: 'BridgeStatusHistory',
  tableName: 'bridge_status_history',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    txHash: p.string().length(160),
    provider: p.string().length(64),
    status: p.string().length(16),
    substatus: p.string().length(64).nullable(),
    message: p.text().nullable(),
    recordedAt: p.datetime(),
  },
  indexes: [{ name: 'bridge_status_history_tx_index', properties: ['txHash', 'recordedAt'] }],
});
