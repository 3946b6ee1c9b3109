import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Credit leases (src/platform/credits/ledger.ts): a block of a partner's credits reserved on the partner
 * row by one process, which spends it locally and writes the charges in batches. `credits` is what the
 * lease still holds on the partner row (spent-but-unwritten charges included), so the partner's
 * `credit_reserved` stays the sum of its reservations and its leases. `flushed_seq` counts the batches
 * written, so a batch retried after a lost reply is recognised instead of applied twice. A lease past
 * `expires_at` (its process died) is released by the sweeper like an expired reservation.
 */
export class Migration0011CreditLeases extends Migration {
  override name = '0011-credit-leases';

  override up(): void {
    const { sqlite, uuid, ts } = columnTypes(this.driver);
    this.addSql(`create table credit_lease (
      id ${uuid} not null primary key,
      partner_id ${uuid} not null references partner (id) on delete cascade,
      credits bigint not null check (credits >= 0),
      flushed_seq bigint not null,
      expires_at ${ts} not null,
      created_at ${ts} not null)`);
    this.addSql('create index credit_lease_expires_at_index on credit_lease (expires_at)');
    if (sqlite) return;
    // Updated a few times a second per hot partner: vacuumed on a fixed count, as 0009 does for the
    // other ledger tables.
    this.addSql(`alter table credit_lease set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500,
      autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 500, autovacuum_vacuum_cost_delay = 0)`);
  }
}
