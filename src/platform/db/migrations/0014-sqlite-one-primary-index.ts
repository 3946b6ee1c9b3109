import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/** What a write breaking the rule fails with on SQLite; PostgreSQL names `mns_name_primary_unique`. */
export const ONE_PRIMARY_MESSAGE = 'mns_name: an address has at most one primary name a network';

/**
 * SQLite keeps one owner-keyed index on the registry instead of two, and a smaller one: what every
 * import of real addresses pays for. Their keys are hashes, so each batch of an import inserts into
 * pages all over both owner indexes, and every page it changes is written to the WAL at its commit and
 * again to the file by the next checkpoint: one index fewer is fewer pages written twice.
 *
 * - The one-primary-name-per-address rule, which the partial unique index `mns_name_primary_unique`
 *   stated, is checked by two triggers against the covering index instead, after each row that is or
 *   becomes primary. SQLite has one writer at a time, so no other transaction can slip a second primary
 *   name in between a row and its check: the rule holds exactly as before, for every writer.
 * - The covering index `mns_name_primary_lookup` holds `nullif(owner, owner_key)`, what reverse lookups
 *   read, instead of `owner`: an owner stored as its own key (the usual case) costs one byte in it
 *   instead of 67. SQLite reads such an expression from the index, so lookups still never visit the
 *   table.
 *
 * PostgreSQL keeps both indexes: it cannot read an expression from an index without the table, and its
 * imports already meet their target.
 */
export class Migration0014SqliteOnePrimaryIndex extends Migration {
  override name = '0014-sqlite-one-primary-index';

  override up(): void {
    if (!columnTypes(this.driver).sqlite) return;
    this.addSql('drop index mns_name_primary_unique');
    this.addSql('drop index mns_name_primary_lookup');
    this.addSql(
      'create index mns_name_primary_lookup on mns_name (owner_key, network, name, nullif(owner, owner_key), expire_at, is_primary) where is_primary',
    );
    for (const [trigger, event] of [
      ['mns_name_one_primary_insert', 'insert'],
      ['mns_name_one_primary_update', 'update of name, network, owner_key, is_primary'],
    ] as const) {
      this.addSql(`create trigger ${trigger} after ${event} on mns_name for each row when new.is_primary begin
        select raise(abort, '${ONE_PRIMARY_MESSAGE}')
        where exists (select 1 from mns_name other where other.owner_key = new.owner_key
          and other.network = new.network and other.is_primary and other.name <> new.name);
      end`);
    }
  }
}
