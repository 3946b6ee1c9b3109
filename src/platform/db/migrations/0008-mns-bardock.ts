import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';
import { mnsNameIndexesSql, mnsNameTableSql } from './mns-name-table.js';

const NETWORKS = "('126', '177', '250')";

/**
 * Movement's Bardock testnet (`move-mvmt:250`) joins mainnet (126) and Porto (177) in the registry: names
 * imported or indexed there need a row. PostgreSQL swaps the check constraint; SQLite cannot alter one,
 * so the table is rebuilt with the same columns, copied and renamed (its indexes recreated).
 */
export class Migration0008MnsBardock extends Migration {
  override name = '0008-mns-bardock';

  override up(): void {
    const { sqlite, ts, bytewise } = columnTypes(this.driver);
    if (!sqlite) {
      this.addSql('alter table mns_name drop constraint mns_name_network_check');
      this.addSql(`alter table mns_name add constraint mns_name_network_check check (network in ${NETWORKS})`);
      return;
    }
    this.addSql(
      mnsNameTableSql('mns_name_next', NETWORKS, { ts, bytewise }, [`source varchar(16) not null default 'import'`]),
    );
    this.addSql(`insert into mns_name_next (name, network, parent, owner, owner_key, resolver_address, is_primary,
      registered_at, expire_at, avatar, txt_records, multichain_addresses, updated_at, source)
      select name, network, parent, owner, owner_key, resolver_address, is_primary, registered_at, expire_at,
      avatar, txt_records, multichain_addresses, updated_at, source from mns_name`);
    this.addSql('drop table mns_name');
    this.addSql('alter table mns_name_next rename to mns_name');
    for (const sql of mnsNameIndexesSql) this.addSql(sql);
  }
}
