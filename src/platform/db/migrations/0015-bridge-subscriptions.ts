import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Open `bridgeStatusChanged` subscriptions, one row each, so that every process counts a partner's open
 * subscriptions and knows which followed transfers someone still watches. A subscription takes one of its
 * partner's numbered slots: the unique (partner, slot) index is what holds the per-partner cap across
 * processes. `owner` is the serving process, which renews `expires_at` while the subscription is open; a
 * row whose process died expires and frees its slot.
 */
export class Migration0015BridgeSubscriptions extends Migration {
  override name = '0015-bridge-subscriptions';

  override up(): void {
    const { uuid, ts } = columnTypes(this.driver);
    this.addSql(`create table bridge_subscription (
      id ${uuid} not null primary key,
      partner_id ${uuid} not null references partner (id) on delete cascade,
      slot integer not null,
      tx_hash varchar(160) not null,
      owner ${uuid} not null,
      expires_at ${ts} not null,
      created_at ${ts} not null)`);
    this.addSql('create unique index bridge_subscription_slot_unique on bridge_subscription (partner_id, slot)');
    this.addSql('create index bridge_subscription_transfer_index on bridge_subscription (partner_id, tx_hash)');
    this.addSql('create index bridge_subscription_owner_index on bridge_subscription (owner)');
    this.addSql('create index bridge_subscription_expires_at_index on bridge_subscription (expires_at)');
  }
}
