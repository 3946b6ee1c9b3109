import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Names resolved from naming providers other than the local registry, with what they resolved to, so a
 * later search for a prefix can list them (chains have no prefix index) until their entry expires.
 */
export class Migration0003NameIndex extends Migration {
  override name = '0003-name-index';

  override up(): void {
    const { ts, bytewise } = columnTypes(this.driver);
    // Prefix search is a range scan on the name, which needs bytewise ordering on PostgreSQL too.
    this.addSql(`create table name_index (
      name text${bytewise} not null,
      provider varchar(32) not null,
      record text not null,
      expires_at ${ts} not null,
      constraint name_index_pkey primary key (name, provider))`);
    this.addSql('create index name_index_expires_at_index on name_index (expires_at)');
  }
}
