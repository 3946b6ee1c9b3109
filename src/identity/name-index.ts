import type { Database } from '../db/orm.js';
import type { NameRecord } from '../providers/naming/types.js';

export interface IndexedName {
  provider: string;
  record: NameRecord;
}

type Db = Pick<Database, 'query' | 'run'>;

/**
 * The local index of names resolved from providers that cannot list names by prefix (ENS, Basenames,
 * SNS). Every successful exact lookup refreshes its entry; a prefix search then lists fresh entries. An
 * entry is served only until it expires, so a name that changed hands is wrong for at most one TTL.
 */
export class NameIndex {
  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
  ) {}

  /** Records what `provider` answered for exact lookups: found names are (re)indexed, missing ones dropped. */
  async update(
    provider: string,
    found: readonly NameRecord[],
    missing: readonly string[],
    now = new Date(),
  ): Promise<void> {
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    for (const record of found) {
      await this.db.run(
        `insert into name_index (name, provider, record, expires_at) values (?, ?, ?, ?)
         on conflict (name, provider) do update set record = excluded.record, expires_at = excluded.expires_at`,
        [record.name, provider, JSON.stringify(record), expiresAt],
      );
    }
    if (missing.length) {
      await this.db.run(
        `delete from name_index where provider = ? and name in (${missing.map(() => '?').join(', ')})`,
        [provider, ...missing],
      );
    }
  }

  /** Fresh entries whose name starts with `prefix`, of the given providers, in name order. */
  async prefix(prefix: string, providers: readonly string[], limit: number, now = new Date()): Promise<IndexedName[]> {
    if (prefix === '' || providers.length === 0 || limit <= 0) return [];
    const rows = await this.db.query<{ provider: string; record: string }>(
      `select provider, record from name_index
       where name >= ? and name < ? and expires_at > ? and provider in (${providers.map(() => '?').join(', ')})
       order by name, provider limit ?`,
      [prefix, prefixUpperBound(prefix), now, ...providers, limit],
    );
    return rows.map((row) => ({ provider: String(row.provider), record: decodeRecord(String(row.record)) }));
  }

  /** Deletes expired entries; returns how many. Run periodically: expired entries are never served anyway. */
  async sweep(now = new Date()): Promise<number> {
    return this.db.run('delete from name_index where expires_at <= ?', [now]);
  }
}

function decodeRecord(json: string): NameRecord {
  const raw = JSON.parse(json) as Omit<NameRecord, 'expireAt' | 'registeredAt'> & {
    expireAt: string | null;
    registeredAt: string | null;
  };
  return {
    ...raw,
    expireAt: raw.expireAt === null ? null : new Date(raw.expireAt),
    registeredAt: raw.registeredAt === null ? null : new Date(raw.registeredAt),
  };
}

/**
 * The smallest string above every string starting with `prefix`, so `name >= prefix and name < bound`
 * is an index range scan. Both databases compare the column bytewise and UTF-8 byte order is code point
 * order, so bumping the last code point is exact.
 */
export function prefixUpperBound(prefix: string): string {
  const points = Array.from(prefix);
  const last = points.pop();
  if (last === undefined) throw new RangeError('empty prefix');
  const next = (last.codePointAt(0) as number) + 1;
  // The surrogate block holds no characters; the next one after it is U+E000.
  return points.join('') + String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
}
