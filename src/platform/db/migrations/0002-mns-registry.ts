import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';
import { mnsNameIndexesSql, mnsNameTableSql } from './mns-name-table.js';

/**
 * The MNS registry: one row per name and Movement network, filled by `names:import`. Text records and
 * chain addresses are JSON text on the row, so every lookup (forward, reverse, metadata) is one indexed
 * read of one table.
 */
export class Migration0002MnsRegistry extends Migration {
  override name = '0002-mns-registry';

  override up(): void {
    const { ts, bytewise } = columnTypes(this.driver);
    // Prefix search is a range scan (`name >= 'ali' and name < 'alj'`), which needs bytewise ordering:
    // SQLite's default BINARY collation is; on PostgreSQL a locale collation would break both the
    // range and its use of the index, so the name columns use "C".
    this.addSql(mnsNameTableSql('mns_name', "('126', '177')", { ts, bytewise }));
    for (const sql of mnsNameIndexesSql) this.addSql(sql);
  }
}
