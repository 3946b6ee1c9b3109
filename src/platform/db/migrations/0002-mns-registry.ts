import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

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
    this.addSql(`create table mns_name (
      name varchar(255)${bytewise} not null,
      network varchar(16) not null,
      parent varchar(255)${bytewise} null,
      owner varchar(255) not null,
      owner_key char(66) not null,
      resolver_address varchar(255) null,
      is_primary boolean not null default false,
      registered_at ${ts} null,
      expire_at ${ts} null,
      avatar text null,
      txt_records text not null default '[]',
      multichain_addresses text not null default '[]',
      updated_at ${ts} not null,
      constraint mns_name_pkey primary key (name, network),
      constraint mns_name_network_check check (network in ('126', '177')))`);
    // At most one primary name per address and network, whatever writes the table; reverse lookups
    // read this index.
    this.addSql('create unique index mns_name_primary_unique on mns_name (owner_key, network) where is_primary');
    this.addSql('create index mns_name_parent_index on mns_name (parent, network) where parent is not null');
  }
}
