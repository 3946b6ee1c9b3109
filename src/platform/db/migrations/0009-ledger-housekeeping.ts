import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Ledger housekeeping. `ledger_daily` holds raw ledger rows rolled up per partner, UTC day, kind and
 * operation once they are older than LEDGER_RETENTION_DAYS, so totals survive the raw rows' deletion.
 *
 * Every paid call inserts and deletes one `credit_reservation` row and updates its partner twice, and
 * every `Idempotency-Key` leaves a row that expires within a day: dead rows that only (auto)vacuum
 * reclaims. PostgreSQL's default trigger (50 dead rows + 20 % of the table) lets a table of many live
 * rows (partners, idempotency records) collect dead ones for long, and the cost-based pauses stretch
 * each run. These tables are vacuumed after a fixed 500 dead rows instead, without pauses (they are
 * small once vacuumed). Autovacuum must be on (the default) for this to matter. SQLite reuses the space
 * of deleted rows by itself.
 */
export class Migration0009LedgerHousekeeping extends Migration {
  override name = '0009-ledger-housekeeping';

  override up(): void {
    const { sqlite, uuid } = columnTypes(this.driver);
    this.addSql(`create table ledger_daily (
      partner_id ${uuid} not null references partner (id) on delete cascade,
      day varchar(10) not null,
      kind varchar(16) not null check (kind in ('grant', 'charge')),
      operation varchar(255) not null,
      credits bigint not null,
      count bigint not null,
      primary key (partner_id, day, kind, operation))`);
    if (sqlite) return;
    for (const table of ['credit_reservation', 'idempotency_record', 'partner']) {
      this.addSql(`alter table ${table} set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500,
        autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 500,
        autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 500, autovacuum_vacuum_cost_delay = 0)`);
    }
  }
}
