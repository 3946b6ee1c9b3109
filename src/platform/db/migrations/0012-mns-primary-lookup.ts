import { Migration } from '@mikro-orm/migrations';

/**
 * Reverse lookups (an address's primary name, one or a 1000-address batch) read only the index: it holds
 * every column they ask and test, so a probe never follows a hit into the table, and a batch, whose
 * statement is much of its CPU on SQLite, costs less; imports pay for the extra index.
 * `mns_name_primary_unique` stays: it is the one-primary-name-per-address rule, which this wider index
 * cannot state.
 */
export class Migration0012MnsPrimaryLookup extends Migration {
  override name = '0012-mns-primary-lookup';

  override up(): void {
    this.addSql(
      'create index mns_name_primary_lookup on mns_name (owner_key, network, name, owner, expire_at, is_primary) where is_primary',
    );
  }
}
