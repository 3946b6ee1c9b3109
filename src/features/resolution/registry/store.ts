import type { Database } from '../../../platform/db/orm.js';
import { prefixUpperBound } from '../../../platform/db/prefix-range.js';
import { limitClause } from '../../../platform/db/sql-limit.js';
import { timestampMs } from '../../../platform/iso-timestamp.js';
import { type ChainAddress, type TxtRecord, type TxtRecordType, txtRecordType } from '../../identity/index.js';
import type { MnsNetwork } from './networks.js';

/** One registered name on one network, as stored by `names:import`. */
export interface MnsName {
  name: string;
  network: MnsNetwork;
  /** The address the name resolves to (its target), as imported. */
  owner: string;
  /** `owner` normalized (lower-case, 64 hex digits) for matching. */
  ownerKey: string;
  resolverAddress: string | null;
  primary: boolean;
  registeredAt: Date | null;
  expireAt: Date | null;
  avatar: string | null;
  /** Read-only: a row read from the registry decodes them on first read and has no setter. */
  readonly txtRecords: TxtRecord[];
  readonly multichainAddresses: ChainAddress[];
  parent: string | null;
}

/** What a reverse lookup answers with: no records, so a 1000-address batch decodes no JSON. */
export type MnsPrimaryName = Pick<MnsName, 'name' | 'network' | 'owner' | 'ownerKey'>;

export interface SubName {
  parent: string;
  name: string;
  owner: string;
}

/** What the registry reads through: its hot reads answer rows as arrays (`queryRows`). */
export type RegistryReader = Pick<Database, 'query' | 'queryRows' | 'dialect'>;
type Query = RegistryReader;
type Row = Record<string, unknown>;

/** A name's columns, read as an array (`queryRows`) in this order: no object per row to build and read. */
const COLUMNS =
  'name, network, owner, owner_key, resolver_address, is_primary, registered_at, expire_at, avatar, txt_records, multichain_addresses, parent';
enum Column {
  Name,
  Network,
  Owner,
  OwnerKey,
  ResolverAddress,
  Primary,
  RegisteredAt,
  ExpireAt,
  Avatar,
  TxtRecords,
  MultichainAddresses,
  Parent,
}
type NameRow = unknown[];

/** The most values a lookup binds at once (sources/query-chunks.ts's MAX_KEYS_PER_QUERY). */
const MAX_LIST = 1000;

// Names that have expired no longer resolve; a null expiry never expires.
const LIVE = '(expire_at is null or expire_at > ?)';

// Built once per list length (every lookup asks for one), up to the longest list a query is given.
const placeholderLists: string[] = [];
const placeholders = (n: number): string => {
  const list = placeholderLists[n] ?? Array.from({ length: n }, () => '?').join(', ');
  if (n <= MAX_LIST) placeholderLists[n] = list;
  return list;
};

// SQLite hands back ISO strings and 0/1, PostgreSQL Dates and booleans.
const toDate = (v: unknown): Date | null =>
  v === null || v === undefined ? null : v instanceof Date ? v : new Date(timestampMs(String(v)));

function parseJson<T>(v: unknown): T[] {
  if (typeof v !== 'string' || v === '') return [];
  const parsed = JSON.parse(v) as unknown;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

const toTxtRecords = (v: unknown): TxtRecord[] =>
  parseJson<{ key: string; value: string; type?: TxtRecordType }>(v).map((r) => ({
    key: r.key,
    value: r.value,
    type: r.type ?? txtRecordType(r.key),
  }));

/**
 * A registry row. The JSON columns are decoded on first read, then kept: an owner lookup never reads
 * them, and decoding them for every row of a 1000-name batch was a large share of its CPU. A class, so
 * the lazy accessors are on its prototype: an object literal with accessors built four closures and
 * their accessor pairs for every row.
 */
class MnsNameRow implements MnsName {
  readonly name: string;
  readonly network: MnsNetwork;
  readonly owner: string;
  readonly ownerKey: string;
  readonly resolverAddress: string | null;
  readonly primary: boolean;
  readonly registeredAt: Date | null;
  readonly expireAt: Date | null;
  readonly avatar: string | null;
  readonly parent: string | null;
  #txtRecords: TxtRecord[] | undefined;
  #multichainAddresses: ChainAddress[] | undefined;
  readonly #row: NameRow;

  constructor(row: NameRow) {
    this.name = String(row[Column.Name]);
    this.network = String(row[Column.Network]) as MnsNetwork;
    this.owner = String(row[Column.Owner]);
    this.ownerKey = String(row[Column.OwnerKey]);
    const resolver = row[Column.ResolverAddress];
    this.resolverAddress = resolver === null ? null : String(resolver);
    const primary = row[Column.Primary];
    this.primary = primary === true || primary === 1 || primary === '1';
    this.registeredAt = toDate(row[Column.RegisteredAt]);
    this.expireAt = toDate(row[Column.ExpireAt]);
    const avatar = row[Column.Avatar];
    this.avatar = avatar === null ? null : String(avatar);
    const parent = row[Column.Parent];
    this.parent = parent === null ? null : String(parent);
    this.#row = row;
  }

  get txtRecords(): TxtRecord[] {
    this.#txtRecords ??= toTxtRecords(this.#row[Column.TxtRecords]);
    return this.#txtRecords;
  }

  get multichainAddresses(): ChainAddress[] {
    this.#multichainAddresses ??= parseJson<ChainAddress>(this.#row[Column.MultichainAddresses]);
    return this.#multichainAddresses;
  }
}

const toMnsName = (row: NameRow): MnsName => new MnsNameRow(row);

/**
 * Live names among `names` (already normalized) on any of `networks`, every network in one query (the
 * primary key is (name, network), so both lists are index probes). A name on several networks comes
 * back once per network; callers pick with `preferredNetwork`.
 */
export async function findNamesOn(
  db: Query,
  networks: readonly MnsNetwork[],
  names: readonly string[],
  now = new Date(),
): Promise<MnsName[]> {
  if (!names.length || !networks.length) return [];
  const rows = await db.queryRows<NameRow>(
    `select ${COLUMNS} from mns_name where name in (${placeholders(names.length)}) and network in (${placeholders(networks.length)}) and ${LIVE}`,
    [...names, ...networks, now],
  );
  return rows.map(toMnsName);
}

/** Live names among `names` (already normalized) on one network: one query, served by the primary key. */
export async function findNames(
  db: Query,
  network: MnsNetwork,
  names: readonly string[],
  now = new Date(),
): Promise<MnsName[]> {
  if (!names.length) return [];
  const rows = await db.queryRows<NameRow>(
    `select ${COLUMNS} from mns_name where network = ? and name in (${placeholders(names.length)}) and ${LIVE}`,
    [network, ...names, now],
  );
  return rows.map(toMnsName);
}

/**
 * The live primary name of each of `ownerKeys` (normalized addresses) on one network, by position: the
 * answer for `ownerKeys[i]` at `i`, a hole where it has none. One query (a second, in the JSON form, for
 * a PostgreSQL batch whose texts cannot answer), each key one probe into the covering index
 * `mns_name_primary_lookup`. Only the columns a reverse lookup answers with are read: decoding the JSON
 * records of every row would cost a large batch much of its CPU.
 */
export async function findPrimaryNames(
  db: Query,
  network: MnsNetwork,
  ownerKeys: readonly string[],
  now = new Date(),
): Promise<(MnsPrimaryName | undefined)[]> {
  const found = new Array<MnsPrimaryName | undefined>(ownerKeys.length);
  if (!ownerKeys.length) return found;
  const one = ownerKeys.length === 1;
  const sqlite = db.dialect === 'sqlite';
  // A key holding a comma (no normalized address does) would split in two and shift every later position.
  if (!one && !sqlite && !ownerKeys.some((key) => key.includes(','))) {
    const [columns] = await db.queryRows<PrimaryColumns>(
      ownerKeys.length <= FEW_KEYS ? PRIMARY_NAMES_POSTGRESQL_FEW : PRIMARY_NAMES_POSTGRESQL,
      [network, ownerKeys.join(','), now],
    );
    if (!columns || placeColumns(columns, network, ownerKeys, found)) return found;
  }
  let rows = await db.queryRows<PrimaryRow>((one ? PRIMARY_NAME : PRIMARY_NAMES)[sqlite ? 'sqlite' : 'postgresql'], [
    network,
    one ? ownerKeys[0] : JSON.stringify(ownerKeys),
    now,
  ]);
  if (!one && !sqlite) {
    const json = (rows[0] as unknown[] | undefined)?.[0];
    rows = typeof json === 'string' ? (JSON.parse(json) as PrimaryRow[]) : [];
  }
  for (const row of rows) {
    found[row[0]] = primaryName(network, ownerKeys, row[0], String(row[1]), row[2] === null ? null : String(row[2]));
  }
  return found;
}

/**
 * The primary name found for `ownerKeys[k]`: one shape for both statement forms, whose owner is null
 * (the rows) or empty (the texts) where it is stored as its own key.
 */
function primaryName(
  network: MnsNetwork,
  ownerKeys: readonly string[],
  k: number,
  name: string,
  owner: string | null,
): MnsPrimaryName {
  const ownerKey = ownerKeys[k] as string;
  return { name, network, owner: owner ?? ownerKey, ownerKey };
}

/**
 * `[at, name, owner]`: the key by its position in the list (counted from 0), so no key comes back as a
 * new string, and an array, cheaper for both drivers to build than an object. An owner stored as its own
 * key (the usual case) comes back as null and is answered with the key the caller already holds: a
 * 1000-address batch then makes a thousand fewer 66-character strings.
 */
type PrimaryRow = [number, unknown, unknown];
/*
 * SQLite's covering index holds this very expression rather than `owner` (migration 0014), and reads
 * it from there only where a statement spells it the same way.
 */
const PRIMARY_OWNER = { sqlite: 'nullif(m.owner, m.owner_key)', postgresql: 'nullif(m.owner, m.owner_key::text)' };
/**
 * PostgreSQL's many-key forms compare the owner with the key as asked (text, equal to the row's
 * `owner_key` by the join), not with `owner_key::text`: the cast trims each row's 66 characters of
 * `char`, and its plan carried the column through the join, which made a large batch's statement slower.
 */
const PRIMARY_OWNER_OF_KEY = 'nullif(m.owner, k.key)';
const PRIMARY_LIVE = 'm.network = $1 and m.is_primary and (m.expire_at is null or m.expire_at > $3)';
/**
 * One key (a single lookup, a quiet turn of the public lookups): a plain index probe, cheaper for
 * PostgreSQL to plan than a join over a one-element list.
 */
const PRIMARY_NAME = {
  sqlite: `select 0, m.name, ${PRIMARY_OWNER.sqlite} from mns_name m
    where m.owner_key = ?2 and ${PRIMARY_LIVE.replaceAll('$', '?')}`,
  postgresql: `select 0, m.name, ${PRIMARY_OWNER.postgresql} from mns_name m
    where m.owner_key = $2 and ${PRIMARY_LIVE}`,
};
/**
 * Many keys as one JSON array parameter driving the index probes: on SQLite faster than
 * binding a thousand values; on PostgreSQL one flat string that the driver sends as it is (an array
 * literal built from it would be a second copy), and which the planner does not estimate key by key as
 * it does a thousand-value IN list.
 *
 * PostgreSQL (only where PRIMARY_NAMES_POSTGRESQL below cannot answer) answers all rows as one JSON
 * text, parsed at once when it has all arrived, rather than rows built one by one over several reads of
 * the socket and kept while the request waits for the rest. One text costs the driver one string instead
 * of two arrays and a message a row; so do the three texts below.
 */
const PRIMARY_NAMES = {
  sqlite: `select k.key, m.name, ${PRIMARY_OWNER.sqlite} from json_each(?2) k
    join mns_name m on m.owner_key = k.value where ${PRIMARY_LIVE.replaceAll('$', '?')}`,
  postgresql: `select json_agg(json_build_array(k.at - 1, m.name, ${PRIMARY_OWNER_OF_KEY}))::text
    from json_array_elements_text($2::json) with ordinality k(key, at)
    join mns_name m on m.owner_key = k.key::bpchar where ${PRIMARY_LIVE}`,
};

/**
 * PostgreSQL's many-key form: the keys as one comma-separated text (normalized addresses hold no comma)
 * and the rows as three texts, each column's values joined in the same row order (one aggregate step
 * feeds every aggregate): positions by commas, names and owners by U+0001, which no valid name or
 * address holds, an owner stored as its own key as an empty string. It costs PostgreSQL less CPU than the
 * JSON form above (parsing the JSON input and `json_agg(json_build_array(…))`), and PostgreSQL's CPU is
 * what bounds large batches.
 */
const primaryNamesPostgresql = (keys: string) => `select string_agg((k.at - 1)::text, ','),
    string_agg(m.name, chr(1)), string_agg(coalesce(${PRIMARY_OWNER_OF_KEY}, ''), chr(1))
    from ${keys} k(key, at)
    join mns_name m on m.owner_key = k.key::bpchar where ${PRIMARY_LIVE}`;
const PRIMARY_NAMES_POSTGRESQL = primaryNamesPostgresql(`string_to_table($2, ',') with ordinality`);
/**
 * A few keys (a busy turn of single lookups): the same statement with the key list's size bounded in its
 * text. The planner counts any `string_to_table` as 1000 rows, and then hashed the whole table for a few
 * keys instead of probing the index; the bound, a constant, keeps the estimate the same for every call, so a named statement keeps its plan.
 */
const FEW_KEYS = 32;
const PRIMARY_NAMES_POSTGRESQL_FEW = primaryNamesPostgresql(
  `(select * from string_to_table($2, ',') with ordinality limit ${FEW_KEYS})`,
);
type PrimaryColumns = [string | null, string | null, string | null];

/**
 * Places the rows of PRIMARY_NAMES_POSTGRESQL's three texts in `found` by their keys' positions. False,
 * with nothing placed, when they do not split into as many names and owners as positions: a name holding
 * U+0001 (written around the importer's checks), which the JSON form then answers exactly.
 */
function placeColumns(
  [at, names, owners]: PrimaryColumns,
  network: MnsNetwork,
  ownerKeys: readonly string[],
  found: (MnsPrimaryName | undefined)[],
): boolean {
  if (at === null) return true;
  const positions = at.split(',');
  const nameList = (names as string).split('\u0001');
  const ownerList = (owners as string).split('\u0001');
  if (nameList.length !== positions.length || ownerList.length !== positions.length) return false;
  for (let i = 0; i < positions.length; i++) {
    const k = Number(positions[i]);
    const owner = ownerList[i] as string;
    found[k] = primaryName(network, ownerKeys, k, nameList[i] as string, owner === '' ? null : owner);
  }
  return true;
}

/** Live sub-names directly under each of `parents` on one network, at most `limit` per parent, by name. */
export async function findSubNames(
  db: Query,
  network: MnsNetwork,
  parents: readonly string[],
  limit: number,
  now = new Date(),
): Promise<SubName[]> {
  if (!parents.length) return [];
  const rows = await db.query<Row>(
    `select parent, name, owner from (
       select parent, name, owner, row_number() over (partition by parent order by name) as rn
       from mns_name where network = ? and parent in (${placeholders(parents.length)}) and ${LIVE}
     ) ranked where rn <= ? order by parent, name`,
    [network, ...parents, now, limit],
  );
  return rows.map((r) => ({ parent: String(r.parent), name: String(r.name), owner: String(r.owner) }));
}

/** Live names starting with `prefix` on any network, in name order: an index range scan. */
export async function findNamesByPrefix(db: Query, prefix: string, limit: number, now = new Date()): Promise<string[]> {
  if (prefix === '') return [];
  const rows = await db.queryRows<[unknown]>(
    `select distinct name from mns_name where name >= ? and name < ? and ${LIVE} order by name ${limitClause(limit)}`,
    [prefix, prefixUpperBound(prefix), now],
  );
  return rows.map((r) => String(r[0]));
}

/** How many names the registry holds (expired ones included). */
export async function countNames(db: Query): Promise<number> {
  const [row] = await db.query<{ n: number | string }>('select count(*) as n from mns_name');
  return Number(row?.n ?? 0);
}
