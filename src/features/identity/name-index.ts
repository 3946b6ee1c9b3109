import type { Database } from '../../platform/db/orm.js';
import { prefixUpperBound } from '../../platform/db/prefix-range.js';
import { limitClause } from '../../platform/db/sql-limit.js';
import type { NameRecord } from './providers/types.js';

export interface IndexedName {
  provider: string;
  record: NameRecord;
  /** When the entry stops being served. */
  expiresAt: Date;
}

/** What one provider answered for one exact lookup: the record, or null when the name does not exist. */
export interface IndexChange {
  provider: string;
  name: string;
  record: NameRecord | null;
}

/**
 * A prefix read of the index (`prefix()`) taken in the same request, which lets `apply` skip writes
 * that would change nothing. `complete` means the read returned every fresh entry of `providers` under
 * `prefix` (it failed neither nor hit its limit), so a name under the prefix that is not in `entries`
 * has no fresh entry.
 */
export interface IndexSnapshot {
  prefix: string;
  providers: readonly string[];
  entries: readonly IndexedName[];
  complete: boolean;
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
    /** Where prefix searches read (a replica: an entry written a moment ago may show up a moment later). */
    private readonly reader: Pick<Database, 'query'> = db,
  ) {}

  /** Records what `provider` answered for exact lookups: found names are (re)indexed, missing ones dropped. */
  async update(
    provider: string,
    found: readonly NameRecord[],
    missing: readonly string[],
    now = new Date(),
  ): Promise<void> {
    await this.apply(
      [
        ...found.map((record) => ({ provider, name: record.name, record })),
        ...missing.map((name) => ({ provider, name, record: null })),
      ],
      now,
    );
  }

  /**
   * Records the answers of one search's exact lookups, of any providers, in at most two statements: one
   * upsert of the names found, one delete of the names missing. With `seen`, the index read of the same
   * search, writes that would change nothing are skipped: a found name whose fresh entry already holds
   * the same record with more than half its TTL left, and a missing name that the read proves has no
   * fresh entry. So a search repeated within the TTL writes nothing, and an entry's record is still at
   * most one TTL older than the last lookup that confirmed it.
   */
  async apply(changes: readonly IndexChange[], now = new Date(), seen?: IndexSnapshot): Promise<void> {
    const known = new Map(seen?.entries.map((e) => [entryKey(e.provider, e.record.name), e]));
    const upserts = new Map<string, { provider: string; record: NameRecord }>();
    const deletes = new Map<string, IndexChange>();
    for (const { provider, name, record } of changes) {
      if (record) {
        // The row written is keyed by the record's own name; a later answer for the same row wins.
        const key = entryKey(provider, record.name);
        const entry = known.get(key);
        const fresh =
          entry !== undefined &&
          entry.expiresAt.getTime() - now.getTime() > (this.ttlSeconds * 1000) / 2 &&
          JSON.stringify(entry.record) === JSON.stringify(record);
        if (!fresh) upserts.set(key, { provider, record });
        continue;
      }
      const key = entryKey(provider, name);
      const absent =
        seen?.complete === true && !known.has(key) && seen.providers.includes(provider) && name.startsWith(seen.prefix);
      if (!absent) deletes.set(key, { provider, name, record });
    }
    if (upserts.size) {
      const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
      const rows = [...upserts.values()];
      await this.db.run(
        `insert into name_index (name, provider, record, expires_at) values ${rows.map(() => '(?, ?, ?, ?)').join(', ')}
         on conflict (name, provider) do update set record = excluded.record, expires_at = excluded.expires_at`,
        rows.flatMap(({ provider, record }) => [record.name, provider, JSON.stringify(record), expiresAt]),
      );
    }
    if (deletes.size) {
      const rows = [...deletes.values()];
      await this.db.run(
        `delete from name_index where ${rows.map(() => '(provider = ? and name = ?)').join(' or ')}`,
        rows.flatMap(({ provider, name }) => [provider, name]),
      );
    }
  }

  /** Fresh entries whose name starts with `prefix`, of the given providers, in name order. */
  async prefix(prefix: string, providers: readonly string[], limit: number, now = new Date()): Promise<IndexedName[]> {
    if (prefix === '' || providers.length === 0 || limit <= 0) return [];
    const rows = await this.reader.query<{ provider: string; record: string; expires_at: unknown }>(
      `select provider, record, expires_at from name_index
       where name >= ? and name < ? and expires_at > ? and provider in (${providers.map(() => '?').join(', ')})
       order by name, provider ${limitClause(limit)}`,
      [prefix, prefixUpperBound(prefix), now, ...providers],
    );
    return rows.map((row) => ({
      provider: String(row.provider),
      record: decodeRecord(String(row.record)),
      // SQLite hands back ISO strings, PostgreSQL Dates.
      expiresAt: row.expires_at instanceof Date ? row.expires_at : new Date(String(row.expires_at)),
    }));
  }

  /** Deletes expired entries; returns how many. Run periodically: expired entries are never served anyway. */
  async sweep(now = new Date()): Promise<number> {
    return this.db.run('delete from name_index where expires_at <= ?', [now]);
  }
}

const entryKey = (provider: string, name: string): string => `${provider}\u0000${name}`;

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
