import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Bridge status pushed to partners: their webhook targets, the transfers followed on their behalf (with the
 * last status change seen, so each change is announced once), and every delivery with its attempts.
 */
export class Migration0010BridgeWebhooks extends Migration {
  override name = '0010-bridge-webhooks';

  override up(): void {
    const { uuid, ts } = columnTypes(this.driver);
    this.addSql(`create table bridge_webhook (
      id ${uuid} not null primary key,
      partner_id ${uuid} not null references partner (id) on delete cascade,
      url varchar(2048) not null,
      secret varchar(128) not null,
      created_at ${ts} not null,
      deleted_at ${ts} null)`);
    this.addSql('create index bridge_webhook_partner_index on bridge_webhook (partner_id)');
    // One row per (partner, transfer): the partner's view of a transfer depends on its own routes.
    this.addSql(`create table bridge_follow (
      partner_id ${uuid} not null references partner (id) on delete cascade,
      tx_hash varchar(160) not null,
      sandbox boolean not null,
      bridge varchar(64) null,
      last_key varchar(96) null,
      last_answer text null,
      seq integer not null default 0,
      checks integer not null default 0,
      next_check_at ${ts} null,
      created_at ${ts} not null,
      primary key (partner_id, tx_hash))`);
    this.addSql('create index bridge_follow_next_check_index on bridge_follow (next_check_at)');
    this.addSql(`create table bridge_webhook_delivery (
      id ${uuid} not null primary key,
      webhook_id ${uuid} not null references bridge_webhook (id) on delete cascade,
      tx_hash varchar(160) not null,
      seq integer not null,
      payload text not null,
      state varchar(16) not null check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      last_status_code integer null,
      last_error text null,
      next_attempt_at ${ts} not null,
      delivered_at ${ts} null,
      created_at ${ts} not null)`);
    this.addSql(
      'create unique index bridge_webhook_delivery_event_unique on bridge_webhook_delivery (webhook_id, tx_hash, seq)',
    );
    this.addSql('create index bridge_webhook_delivery_due_index on bridge_webhook_delivery (state, next_attempt_at)');
  }
}
