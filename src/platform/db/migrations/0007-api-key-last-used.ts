import { Migration } from '@mikro-orm/migrations';
import { columnTypes } from './dialect.js';

/** When each API key was last used (to the minute), so a partner can tell its keys apart before revoking one. */
export class Migration0007ApiKeyLastUsed extends Migration {
  override name = '0007-api-key-last-used';

  override up(): void {
    const { ts } = columnTypes(this.driver);
    this.addSql(`alter table api_key add column last_used_at ${ts} null`);
  }
}
