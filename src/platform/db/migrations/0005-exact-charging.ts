import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Exactly-once charging. Ledger charges remember the reservation they settle, so a settlement retried
 * after a lost reply can tell it already happened; answers of requests that carried an
 * `Idempotency-Key` are kept for 24 h so a retry gets the same answer without a second charge.
 */
export class Migration0005ExactCharging extends Migration {
  override name = '0005-exact-charging';

  override up(): void {
    const { uuid, ts } = columnTypes(this.driver);
    this.addSql(`alter table ledger_entry add column reservation_id ${uuid} null`);
    this.addSql('create index ledger_entry_reservation_id_index on ledger_entry (reservation_id)');
    this.addSql(`create table idempotency_record (
      partner_id ${uuid} not null references partner (id) on delete cascade,
      idempotency_key varchar(255) not null,
      request_hash varchar(64) not null,
      state varchar(16) not null check (state in ('pending', 'done')),
      status_code integer null,
      content_type varchar(255) null,
      body text null,
      created_at ${ts} not null,
      expires_at ${ts} not null,
      primary key (partner_id, idempotency_key))`);
    this.addSql('create index idempotency_record_expires_at_index on idempotency_record (expires_at)');
  }
}
