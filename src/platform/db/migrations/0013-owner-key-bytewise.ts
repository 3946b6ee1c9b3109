import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * `owner_key` (a normalized address: `0x` and 64 lower-case hex digits) compared by bytes on PostgreSQL,
 * as `name` already is. Every reverse lookup descends the `(owner_key, …)` indexes, and each comparison
 * on the way down used the database's collation: with a locale collation PostgreSQL calls `strcoll` (or
 * ICU) where "C" compares with `memcmp`, which is cheaper. Hex digits sort the same either way, so no
 * answer changes. SQLite's default collation, BINARY, already compares bytes.
 *
 * The column's two indexes are rebuilt: on a large registry the table is locked for that while (a few
 * seconds a million names).
 */
export class Migration0013OwnerKeyBytewise extends Migration {
  override name = '0013-owner-key-bytewise';

  override up(): void {
    const { sqlite, bytewise } = columnTypes(this.driver);
    if (sqlite) return;
    this.addSql(`alter table mns_name alter column owner_key type char(66)${bytewise}`);
  }
}
