import type { columnTypes } from './dialect.js';

type Types = Pick<ReturnType<typeof columnTypes>, 'ts' | 'bytewise'>;

/**
 * The `mns_name` table as 0002 created it and 0008 rebuilds it on SQLite (which cannot alter a check
 * constraint). Both migrations have run on deployed databases, so the text each one emits must stay
 * byte-for-byte what it was: `extraColumns` carries the columns added since 0002 (0006's `source`).
 */
export function mnsNameTableSql(
  table: string,
  networks: string,
  { ts, bytewise }: Types,
  extraColumns: readonly string[] = [],
): string {
  const extra = extraColumns.map((column) => `\n      ${column},`).join('');
  return `create table ${table} (
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
      updated_at ${ts} not null,${extra}
      constraint mns_name_pkey primary key (name, network),
      constraint mns_name_network_check check (network in ${networks}))`;
}

/**
 * Its indexes. At most one primary name per address and network, whatever writes the table; reverse
 * lookups read that index.
 */
export const mnsNameIndexesSql = [
  'create unique index mns_name_primary_unique on mns_name (owner_key, network) where is_primary',
  'create index mns_name_parent_index on mns_name (parent, network) where parent is not null',
];
