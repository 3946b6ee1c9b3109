import { ApiKey, CreditReservation, IdempotencyRecord, LedgerDaily, LedgerEntry, Partner } from './accounts.js';
import { BridgeCatalogue, BridgeRoute, BridgeStatusHistory, BridgeTransfer } from './bridge.js';
import { CreditLease } from './credit-lease.js';
import { MnsIndexerCursor, MnsName, NameIndex } from './mns.js';
import { BridgeFollow, BridgeSubscription, BridgeWebhook, BridgeWebhookDelivery } from './webhooks.js';

export * from './accounts.js';
export * from './bridge.js';
export * from './credit-lease.js';
export * from './mns.js';
export { SchemaNamingStrategy } from './naming.js';
export * from './webhooks.js';

/** Every table the migrations create, as MikroORM entities (entities.test.ts proves they match). */
export const allEntities = [
  Partner,
  ApiKey,
  CreditReservation,
  CreditLease,
  LedgerEntry,
  LedgerDaily,
  IdempotencyRecord,
  MnsName,
  NameIndex,
  MnsIndexerCursor,
  BridgeCatalogue,
  BridgeRoute,
  BridgeTransfer,
  BridgeStatusHistory,
  BridgeWebhook,
  BridgeFollow,
  BridgeWebhookDelivery,
  BridgeSubscription,
];
