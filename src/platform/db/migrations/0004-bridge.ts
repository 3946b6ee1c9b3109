import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Bridge state: the provider catalogue cache, every quoted route (so a later status call can be
 * routed to the provider that quoted it), the last known status of each transfer, and the history
 * of its status changes.
 */
export class Migration0004Bridge extends Migration {
  override name = '0004-bridge';

  override up(): void {
    const { uuid, ts, serial } = columnTypes(this.driver);
    // One provider's answer for one catalogue resource ("chains" or "tokens:<caip2Id>"), kept as JSON.
    this.addSql(`create table bridge_catalogue (
      provider varchar(64) not null,
      resource varchar(160) not null,
      payload text not null,
      fetched_at ${ts} not null,
      primary key (provider, resource))`);
    this.addSql(`create table bridge_route (
      id ${uuid} not null primary key,
      partner_id ${uuid} null references partner (id) on delete set null,
      provider varchar(64) not null,
      from_chain varchar(80) not null,
      to_chain varchar(80) not null,
      request text not null,
      route text not null,
      tracking text null,
      tx_fingerprint varchar(66) null,
      tx_hash varchar(160) null,
      linked_by varchar(16) null check (linked_by in ('chain', 'partner')),
      linked_at ${ts} null,
      created_at ${ts} not null)`);
    this.addSql('create index bridge_route_tx_fingerprint_index on bridge_route (tx_fingerprint)');
    this.addSql('create unique index bridge_route_tx_hash_unique on bridge_route (tx_hash)');
    this.addSql('create index bridge_route_created_at_index on bridge_route (created_at)');
    this.addSql(`create table bridge_transfer (
      tx_hash varchar(160) not null,
      provider varchar(64) not null,
      route_id ${uuid} null references bridge_route (id) on delete set null,
      status varchar(16) not null check (status in ('NOT_FOUND', 'PENDING', 'DONE', 'FAILED')),
      substatus varchar(64) null,
      answer text not null,
      terminal boolean not null default false,
      first_seen_at ${ts} not null,
      updated_at ${ts} not null,
      primary key (tx_hash, provider))`);
    this.addSql(`create table bridge_status_history (
      id ${serial},
      tx_hash varchar(160) not null,
      provider varchar(64) not null,
      status varchar(16) not null,
      substatus varchar(64) null,
      message text null,
      recorded_at ${ts} not null)`);
    this.addSql('create index bridge_status_history_tx_index on bridge_status_history (tx_hash, recorded_at)');
  }
}
