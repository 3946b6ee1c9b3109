import type { AbstractSqlDriver } from '@mikro-orm/sql';
import { SqlitePlatform } from '@mikro-orm/sql';

/**
 * Column types that differ between the two databases, so each migration is written once for both.
 * `bytewise` collates text by bytes on PostgreSQL (SQLite's BINARY default already does): prefix
 * search is a range scan (`name >= 'ali' and name < 'alj'`) that a locale collation would break.
 */
export function columnTypes(driver: AbstractSqlDriver) {
  const sqlite = driver.getPlatform() instanceof SqlitePlatform;
  return {
    sqlite,
    uuid: sqlite ? 'text' : 'uuid',
    ts: sqlite ? 'datetime' : 'timestamptz',
    serial: sqlite ? 'integer primary key autoincrement' : 'bigserial primary key',
    bytewise: sqlite ? '' : ' collate "C"',
  };
}
