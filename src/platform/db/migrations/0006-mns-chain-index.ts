import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/**
 * Names read from the chain by the MNS indexer live beside imported ones: each row says where it came
 * from (`import` or `chain`), so the indexer never overwrites an operator's import and an operator can
 * tell the two apart. The indexer's cursor per Movement network is stored so a restart resumes where
 * it stopped, with what it last knew of the chain's head for the lag it reports.
 */
export class Migration0006MnsChainIndex extends Migration {
  override name = '0006-mns-chain-index';

  override up(): void {
    const { ts } = columnTypes(this.driver);
    this.addSql(`alter table mns_name add column source varchar(16) not null default 'import'`);
    this.addSql(`create table mns_indexer_cursor (
      network varchar(16) not null,
      next_version varchar(20) not null,
      ledger_version varchar(20) null,
      ledger_timestamp ${ts} null,
      indexed_timestamp ${ts} null,
      updated_at ${ts} not null,
      constraint mns_indexer_cursor_pkey primary key (network))`);
  }
}
