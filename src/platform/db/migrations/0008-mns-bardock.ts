import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

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
    this.addSql(`create table mns_name_next (
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
      source varchar(16) not null default 'import',
      constraint mns_name_pkey primary key (name, network),
      constraint mns_name_network_check check (network in ${NETWORKS}))`);
    this.addSql(`insert into mns_name_next (name, network, parent, owner, owner_key, resolver_address, is_primary,
      registered_at, expire_at, avatar, txt_records, multichain_addresses, updated_at, source)
      select name, network, parent, owner, owner_key, resolver_address, is_primary, registered_at, expire_at,
      avatar, txt_records, multichain_addresses, updated_at, source from mns_name`);
    this.addSql('drop table mns_name');
    this.addSql('alter table mns_name_next rename to mns_name');
    this.addSql('create unique index mns_name_primary_unique on mns_name (owner_key, network) where is_primary');
    this.addSql('create index mns_name_parent_index on mns_name (parent, network) where parent is not null');
  }
}
