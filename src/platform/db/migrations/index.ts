import { Migration0001Foundation } from './0001-foundation.js';
import { Migration0002MnsRegistry } from './0002-mns-registry.js';
import { Migration0003NameIndex } from './0003-name-index.js';
import { Migration0004Bridge } from './0004-bridge.js';
import { Migration0005ExactCharging } from './0005-exact-charging.js';
import { Migration0006MnsChainIndex } from './0006-mns-chain-index.js';
import { Migration0007ApiKeyLastUsed } from './0007-api-key-last-used.js';
import { Migration0008MnsBardock } from './0008-mns-bardock.js';
import { Migration0009LedgerHousekeeping } from './0009-ledger-housekeeping.js';
import { Migration0010BridgeWebhooks } from './0010-bridge-webhooks.js';
import { Migration0011CreditLeases } from './0011-credit-leases.js';
import { Migration0012MnsPrimaryLookup } from './0012-mns-primary-lookup.js';
import { Migration0013OwnerKeyBytewise } from './0013-owner-key-bytewise.js';
import { Migration0014SqliteOnePrimaryIndex } from './0014-sqlite-one-primary-index.js';
import { Migration0015BridgeSubscriptions } from './0015-bridge-subscriptions.js';
import { Migration0016BridgeLinkPerPartner } from './0016-bridge-link-per-partner.js';

/** Every committed migration, in order. Listed explicitly so compiled and test builds run the same set. */
export const migrationsList = [
  { name: '0001-foundation', class: Migration0001Foundation },
  { name: '0002-mns-registry', class: Migration0002MnsRegistry },
  { name: '0003-name-index', class: Migration0003NameIndex },
  { name: '0004-bridge', class: Migration0004Bridge },
  { name: '0005-exact-charging', class: Migration0005ExactCharging },
  { name: '0006-mns-chain-index', class: Migration0006MnsChainIndex },
  { name: '0007-api-key-last-used', class: Migration0007ApiKeyLastUsed },
  { name: '0008-mns-bardock', class: Migration0008MnsBardock },
  { name: '0009-ledger-housekeeping', class: Migration0009LedgerHousekeeping },
  { name: '0010-bridge-webhooks', class: Migration0010BridgeWebhooks },
  { name: '0011-credit-leases', class: Migration0011CreditLeases },
  { name: '0012-mns-primary-lookup', class: Migration0012MnsPrimaryLookup },
  { name: '0013-owner-key-bytewise', class: Migration0013OwnerKeyBytewise },
  { name: '0014-sqlite-one-primary-index', class: Migration0014SqliteOnePrimaryIndex },
  { name: '0015-bridge-subscriptions', class: Migration0015BridgeSubscriptions },
  { name: '0016-bridge-link-per-partner', class: Migration0016BridgeLinkPerPartner },
];
