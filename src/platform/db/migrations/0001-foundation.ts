import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/** Partners, API keys, credit reservations and the credit ledger. */
export class Migration0001Foundation extends Migration {
  override name = '0001-foundation';

  override up(): void {
    const { uuid, ts, serial } = columnTypes(this.driver);
    this.addSql(`create table partner (
      id ${uuid} not null primary key,
      name varchar(255) not null,
      email varchar(255) not null,
      credit_balance bigint not null default 0,
      credit_usage bigint not null default 0,
      credit_reserved bigint not null default 0,
      sandbox boolean not null default false,
      created_at ${ts} not null,
      constraint partner_credits_nonnegative check (credit_balance >= 0 and credit_usage >= 0 and credit_reserved >= 0),
      constraint partner_reserved_within_balance check (credit_reserved <= credit_balance))`);
    this.addSql('create unique index partner_email_unique on partner (email)');
    this.addSql(`create table api_key (
      id ${uuid} not null primary key,
      partner_id ${uuid} not null references partner (id) on delete cascade,
      prefix varchar(64) not null,
      hash varchar(128) not null,
      label varchar(255) null,
      created_at ${ts} not null,
      revoked_at ${ts} null)`);
    this.addSql('create unique index api_key_prefix_unique on api_key (prefix)');
    this.addSql('create index api_key_partner_id_index on api_key (partner_id)');
    this.addSql(`create table credit_reservation (
      id ${uuid} not null primary key,
      partner_id ${uuid} not null references partner (id) on delete cascade,
      credits integer not null check (credits > 0),
      operation varchar(255) not null,
      request_id varchar(255) not null,
      expires_at ${ts} not null)`);
    this.addSql('create index credit_reservation_expires_at_index on credit_reservation (expires_at)');
    this.addSql(`create table ledger_entry (
      id ${serial},
      partner_id ${uuid} not null references partner (id) on delete cascade,
      kind varchar(16) not null check (kind in ('grant', 'charge')),
      operation varchar(255) not null,
      credits integer not null,
      request_id varchar(255) null,
      created_at ${ts} not null)`);
    this.addSql('create index ledger_entry_partner_id_index on ledger_entry (partner_id, created_at)');
  }
}
