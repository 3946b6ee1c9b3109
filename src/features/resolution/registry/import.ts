import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Database } from '../../../platform/db/orm.js';
import { txtRecordType } from '../../identity/providers/txt-records.js';
import type { TxtRecordType } from '../../identity/providers/types.js';
import { ADDRESS_RULE, normalizeMoveAddress } from './address.js';
import { InvalidNameError, normalizeMnsName, parentOf } from './name.js';
import { InvalidNetworkError, type MnsNetwork, networksOf, parseChainId } from './networks.js';
import type { MnsName } from './store.js';

/**
 * `names:import` reads JSON Lines, one name per line:
 *
 *   {"name": "alice.snow", "caip2Id": "move-mvmt:126", "owner": "0x…", "resolverAddress": "0x…",
 *    "primary": true, "registeredAt": "2025-01-02T03:04:05Z", "expireAt": "2026-01-02T03:04:05Z",
 *    "avatar": "https://…", "txtRecords": [{"key": "com.twitter", "value": "alice", "type": "social"}],
 *    "multichainAddresses": [{"address": "0x…", "caip2Id": "eip155:1"}]}
 *
 * A line is the complete record of its name on its network: it replaces what was stored (upsert by name
 * and network), so an omitted optional field clears it and an omitted `primary` means not primary.
 * Unknown fields are rejected, so that a misspelt field cannot silently drop data.
 */
export interface ImportSummary {
  /** Non-blank lines read. */
  lines: number;
  imported: number;
  rejected: number;
  /** Every rejected line, by its 1-based line number in the file. */
  errors: { line: number; message: string }[];
}

export class ImportLineError extends Error {
  override name = 'ImportLineError';
}

const FIELDS = new Set([
  'name',
  'caip2Id',
  'owner',
  'resolverAddress',
  'primary',
  'registeredAt',
  'expireAt',
  'avatar',
  'txtRecords',
  'multichainAddresses',
]);
const TXT_TYPES = new Set<TxtRecordType>(['social', 'url', 'email', 'text']);
// ISO 8601 with an explicit zone: a zone-less date-time would be read in the importing machine's zone.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const MAX_TEXT = 4096;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): v is null | undefined => v === undefined || v === null;

function requiredString(obj: Record<string, unknown>, field: string): string {
  const v = obj[field];
  if (typeof v !== 'string' || v.trim() === '') throw new ImportLineError(`"${field}" must be a non-empty string`);
  return v.trim();
}

function optionalString(obj: Record<string, unknown>, field: string, max = MAX_TEXT): string | null {
  const v = obj[field];
  if (absent(v)) return null;
  if (typeof v !== 'string') throw new ImportLineError(`"${field}" must be a string`);
  if (v.length > max) throw new ImportLineError(`"${field}" is longer than ${max} characters`);
  return v.trim() === '' ? null : v.trim();
}

/** The address's normalized form (see normalizeMoveAddress); the value itself is stored as given. */
function addressKey(value: string, field: string): string {
  const key = normalizeMoveAddress(value);
  if (!key) throw new ImportLineError(`"${field}" must be a Movement address (${ADDRESS_RULE}), got "${value}"`);
  return key;
}

function timestamp(obj: Record<string, unknown>, field: string): Date | null {
  const v = optionalString(obj, field, 64);
  if (v === null) return null;
  const ms = ISO_TIMESTAMP.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms))
    throw new ImportLineError(`"${field}" must be an ISO 8601 timestamp with a zone, e.g. 2026-01-31T12:00:00Z`);
  return new Date(ms);
}

function list(obj: Record<string, unknown>, field: string): Record<string, unknown>[] {
  const v = obj[field];
  if (absent(v)) return [];
  if (!Array.isArray(v)) throw new ImportLineError(`"${field}" must be an array`);
  if (v.length > 1000) throw new ImportLineError(`"${field}" has more than 1000 entries`);
  return v.map((item, i) => {
    if (!isObject(item)) throw new ImportLineError(`"${field}[${i}]" must be an object`);
    return item;
  });
}

/** Validates one line and returns the row it stands for; throws `ImportLineError` saying what is wrong. */
export function parseImportLine(text: string): MnsName {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    throw new ImportLineError(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isObject(obj)) throw new ImportLineError('must be a JSON object');
  const unknown = Object.keys(obj).filter((k) => !FIELDS.has(k));
  if (unknown.length)
    throw new ImportLineError(
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`,
    );

  let name: string;
  try {
    name = normalizeMnsName(requiredString(obj, 'name'));
  } catch (err) {
    if (err instanceof InvalidNameError) throw new ImportLineError(`"name" ${err.message}`);
    throw err;
  }
  let network: MnsNetwork;
  try {
    network = networksOf(requiredString(obj, 'caip2Id'), { wildcard: false })[0] as MnsNetwork;
  } catch (err) {
    if (err instanceof InvalidNetworkError) throw new ImportLineError(`"caip2Id": ${err.message}`);
    throw err;
  }
  const owner = requiredString(obj, 'owner');
  const ownerKey = addressKey(owner, 'owner');
  const resolver = optionalString(obj, 'resolverAddress', 255);
  if (!absent(obj.primary) && typeof obj.primary !== 'boolean')
    throw new ImportLineError('"primary" must be true or false');
  const avatar = optionalString(obj, 'avatar', 2048);
  if (avatar !== null && !URL.canParse(avatar)) throw new ImportLineError('"avatar" must be a URL');

  const txtRecords = list(obj, 'txtRecords').map((r, i) => {
    const key = r.key;
    const value = r.value;
    if (typeof key !== 'string' || key.trim() === '' || key.length > 255) {
      throw new ImportLineError(`"txtRecords[${i}].key" must be a non-empty string of at most 255 characters`);
    }
    if (typeof value !== 'string' || value.length > MAX_TEXT) {
      throw new ImportLineError(`"txtRecords[${i}].value" must be a string of at most ${MAX_TEXT} characters`);
    }
    if (!absent(r.type) && !TXT_TYPES.has(r.type as TxtRecordType)) {
      throw new ImportLineError(`"txtRecords[${i}].type" must be one of ${[...TXT_TYPES].join(', ')}`);
    }
    const extra = Object.keys(r).filter((k) => k !== 'key' && k !== 'value' && k !== 'type');
    if (extra.length) throw new ImportLineError(`"txtRecords[${i}]" has unknown field "${extra[0]}"`);
    return { key: key.trim(), value, type: (r.type as TxtRecordType | null | undefined) ?? txtRecordType(key.trim()) };
  });
  const multichainAddresses = list(obj, 'multichainAddresses').map((a, i) => {
    if (typeof a.address !== 'string' || a.address.trim() === '' || a.address.length > 255) {
      throw new ImportLineError(`"multichainAddresses[${i}].address" must be a non-empty string`);
    }
    const chain = typeof a.caip2Id === 'string' ? parseChainId(a.caip2Id.trim()) : null;
    if (!chain || chain.reference === '*') {
      throw new ImportLineError(`"multichainAddresses[${i}].caip2Id" must be a CAIP-2 chain id such as eip155:1`);
    }
    const extra = Object.keys(a).filter((k) => k !== 'address' && k !== 'caip2Id');
    if (extra.length) throw new ImportLineError(`"multichainAddresses[${i}]" has unknown field "${extra[0]}"`);
    return { address: a.address.trim(), caip2Id: `${chain.namespace}:${chain.reference}` };
  });

  return {
    name,
    network,
    owner,
    ownerKey,
    resolverAddress: resolver !== null && addressKey(resolver, 'resolverAddress') ? resolver : null,
    primary: obj.primary === true,
    registeredAt: timestamp(obj, 'registeredAt'),
    expireAt: timestamp(obj, 'expireAt'),
    avatar,
    txtRecords,
    multichainAddresses,
    parent: parentOf(name),
  };
}

interface Pending {
  line: number;
  row: MnsName;
}

// The columns a line sets, in the order the statements below bind them; updated_at is the batch's time.
const COLUMNS = [
  'name',
  'network',
  'parent',
  'owner',
  'owner_key',
  'resolver_address',
  'is_primary',
  'registered_at',
  'expire_at',
  'avatar',
  'txt_records',
  'multichain_addresses',
] as const;
// PostgreSQL types of COLUMNS, in order, for the column-array form below.
const PG_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'boolean',
  'timestamptz',
  'timestamptz',
  'text',
  'text',
  'text',
];
const UPSERT = `on conflict (name, network) do update set ${[...COLUMNS, 'updated_at']
  .filter((c) => c !== 'name' && c !== 'network')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ')}, source = 'import'`;
// owner_key travels as NULL where it is the owner as written (an address given in full, lower-case:
// the usual case), which spares 64 of the 330 or so bytes a row costs to send and for the server to read.
const PG_INSERT = `insert into mns_name (${COLUMNS.join(', ')}, updated_at)
  select ${COLUMNS.map((c) => (c === 'owner_key' ? 'coalesce(owner_key, owner)' : c)).join(', ')}, ?::timestamptz
  from unnest(${PG_TYPES.map((t) => `?::${t}[]`).join(', ')}) as line (${COLUMNS.join(', ')}) ${UPSERT}`;
// Rows per PostgreSQL statement: a default batch in one. The twelve arrays are bound parameters, so a
// larger statement costs no more to plan; 5 000 rows took 6.0–6.9 s for 220 000 names against 7.8–8.3 s
// in statements of 1 000 (a round trip and a statement start each).
const PG_ROWS_PER_STATEMENT = 5000;
// SQLite allows 32 766 bound values a statement: 2 500 rows of 13 stay under it.
const SQLITE_ROWS_PER_STATEMENT = 2500;
const SQLITE_ROW = `(${COLUMNS.map(() => '?').join(', ')}, ?)`;
const sqliteInsert = (rows: number): string =>
  `insert into mns_name (${COLUMNS.join(', ')}, updated_at) values ${Array.from({ length: rows }, () => SQLITE_ROW).join(', ')} ${UPSERT}`;
const SQLITE_FULL_INSERT = sqliteInsert(SQLITE_ROWS_PER_STATEMENT);
// PostgreSQL (15) plans `owner_key in (…2 500 owners)` as a scan of the whole table, costing each of
// the owners as a random read: demoting took 30 ms a statement on average over an import of 220 000
// names into an empty table, growing with the table. A lateral subquery with LIMIT 1 (exact: an owner has
// at most one primary name a network) can only be planned as one index probe an owner: 3–7 ms for 2 500
// owners in a table of 60 000 names (20 ms as a scan), whatever the table's statistics say.
// The conditions repeated outside: a row a concurrent writer changed since the snapshot is updated in its
// latest version, and must then still be that owner's primary name to be demoted.
const PG_DEMOTE = `update mns_name set is_primary = false, updated_at = ?
  where ctid = any(array(
    select p.ctid from unnest(?::bpchar[]) as o (owner_key)
    cross join lateral (select ctid from mns_name where owner_key = o.owner_key and network = ? and is_primary limit 1) p))
  and network = ? and is_primary and owner_key = any(?::bpchar[])`;
// Owners demoted by one SQLite statement: bounded by its 32 766 values too.
const DEMOTE_PER_STATEMENT = 2500;

type Value = string | boolean | null;

/** One PostgreSQL array literal (`{"a",NULL}`) of a column's values. */
function pgArray(values: readonly Value[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as Value;
    parts[i] =
      v === null
        ? 'NULL'
        : typeof v === 'boolean'
          ? v
            ? 't'
            : 'f'
          : `"${v.includes('"') || v.includes('\\') ? v.replace(/[\\"]/g, '\\$&') : v}"`;
  }
  return `{${parts.join(',')}}`;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * `new Date(ms).toISOString()`, for years 0 to 9999 (others go to it), about three times faster: an
 * import converts two timestamps a line. Civil date from days after Howard Hinnant's `civil_from_days`.
 */
export function isoTimestamp(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999 || !Number.isFinite(ms)) return new Date(ms).toISOString();
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const inDay = ms - days * 86_400_000;
  const millis = inDay % 1000;
  const seconds = Math.floor(inDay / 1000);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(Math.floor(seconds / 3600))}:${pad2(
    Math.floor(seconds / 60) % 60,
  )}:${pad2(seconds % 60)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/**
 * The outcome of applying a batch's lines in file order: a later line for the same name replaces an
 * earlier one, and a primary line demotes every other primary name of its owner on its network,
 * whether stored before (`demote`: owners whose stored primaries are cleared first) or earlier in the
 * batch.
 */
function applyInOrder(batch: readonly Pending[]): { rows: MnsName[]; demote: Map<MnsNetwork, Set<string>> } {
  const rows = new Map<string, MnsName>();
  const primaryOf = new Map<string, string>();
  const demote = new Map<MnsNetwork, Set<string>>();
  for (const { row } of batch) {
    const key = `${row.name}\u0000${row.network}`;
    const previous = rows.get(key);
    if (previous?.primary && primaryOf.get(`${previous.ownerKey}\u0000${row.network}`) === key) {
      primaryOf.delete(`${previous.ownerKey}\u0000${row.network}`);
    }
    rows.delete(key);
    rows.set(key, row);
    if (row.primary) {
      const holderKey = `${row.ownerKey}\u0000${row.network}`;
      const holder = primaryOf.get(holderKey);
      // A copy: the parsed row is the caller's, and stays as its line said.
      if (holder !== undefined && holder !== key)
        rows.set(holder, { ...(rows.get(holder) as MnsName), primary: false });
      primaryOf.set(holderKey, key);
      const owners = demote.get(row.network) ?? new Set<string>();
      owners.add(row.ownerKey);
      demote.set(row.network, owners);
    }
  }
  return { rows: [...rows.values()], demote };
}

const json = (list: readonly unknown[]): string => (list.length ? JSON.stringify(list) : '[]');
const iso = (date: Date | null): string | null => (date === null ? null : isoTimestamp(date.getTime()));

/** The statements that write one batch, in order: built before the previous batch's write is awaited. */
interface Statement {
  sql: string;
  params: unknown[];
}

function batchStatements(dialect: ImportDatabase['dialect'], batch: readonly Pending[], at: Date): Statement[] {
  const { rows, demote } = applyInOrder(batch);
  const now = at.toISOString();
  const statements: Statement[] = [];
  for (const [network, owners] of demote) {
    const list = [...owners];
    if (dialect === 'postgresql') {
      const ownerArray = pgArray(list);
      statements.push({ sql: PG_DEMOTE, params: [now, ownerArray, network, network, ownerArray] });
      continue;
    }
    for (let i = 0; i < list.length; i += DEMOTE_PER_STATEMENT) {
      const chunk = list.slice(i, i + DEMOTE_PER_STATEMENT);
      statements.push({
        sql: `update mns_name set is_primary = false, updated_at = ? where network = ? and is_primary and owner_key in (${chunk.map(() => '?').join(', ')})`,
        params: [now, network, ...chunk],
      });
    }
  }
  if (dialect === 'postgresql') {
    // PostgreSQL plans a VALUES list of thousands of values far slower than 12 arrays unnested into rows.
    for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
      const chunk = rows.slice(start, start + PG_ROWS_PER_STATEMENT);
      const columns: Value[][] = [
        chunk.map((r) => r.name),
        chunk.map((r) => r.network),
        chunk.map((r) => r.parent),
        chunk.map((r) => r.owner),
        chunk.map((r) => (r.ownerKey === r.owner ? null : r.ownerKey)),
        chunk.map((r) => r.resolverAddress),
        chunk.map((r) => r.primary),
        chunk.map((r) => iso(r.registeredAt)),
        chunk.map((r) => iso(r.expireAt)),
        chunk.map((r) => r.avatar),
        chunk.map((r) => json(r.txtRecords)),
        chunk.map((r) => json(r.multichainAddresses)),
      ];
      statements.push({ sql: PG_INSERT, params: [now, ...columns.map(pgArray)] });
    }
  } else {
    for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_STATEMENT) {
      const chunk = rows.slice(start, start + SQLITE_ROWS_PER_STATEMENT);
      const params = new Array<unknown>(chunk.length * (COLUMNS.length + 1));
      let i = 0;
      for (const r of chunk) {
        params[i++] = r.name;
        params[i++] = r.network;
        params[i++] = r.parent;
        params[i++] = r.owner;
        params[i++] = r.ownerKey;
        params[i++] = r.resolverAddress;
        params[i++] = r.primary;
        params[i++] = iso(r.registeredAt);
        params[i++] = iso(r.expireAt);
        params[i++] = r.avatar;
        params[i++] = json(r.txtRecords);
        params[i++] = json(r.multichainAddresses);
        params[i++] = now;
      }
      statements.push({
        sql: chunk.length === SQLITE_ROWS_PER_STATEMENT ? SQLITE_FULL_INSERT : sqliteInsert(chunk.length),
        params,
      });
    }
  }
  return statements;
}

async function writeStatements(db: ImportDatabase, statements: readonly Statement[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const { sql, params } of statements) await tx.run(sql, params);
  });
}

/** The database the import writes to; its dialect picks the statement form. */
export type ImportDatabase = Pick<Database, 'transaction'> & Partial<Pick<Database, 'dialect'>>;

export interface ImportOptions {
  /** Lines per transaction. */
  batchSize?: number;
  /** Called after each written batch with the lines read so far, for progress output. */
  onProgress?: (summary: ImportSummary) => void;
}

/**
 * Lines per transaction unless told otherwise. Larger transactions write fewer pages on SQLite, but hold
 * its file's write lock longer: 5 000 lines are written in about 0.05 s, well inside the 0.8 s a running
 * server waits for that lock (DATABASE_ACQUIRE_TIMEOUT_MS) before answering 503.
 */
export const DEFAULT_BATCH_SIZE = 5000;

/**
 * Imports JSON Lines (see the format above) in batched transactions, each batch in one transaction. A
 * bad line is skipped and reported.
 *
 * On PostgreSQL the next batch is read and validated while one is being written, which hides most of
 * the parsing behind the server's work. Batches are still written one after the other, in file order,
 * each (and any line-by-line retry of it) finished before the next starts.
 */
export async function importNames(
  db: ImportDatabase,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const summary: ImportSummary = { lines: 0, imported: 0, rejected: 0, errors: [] };
  const reject = (line: number, message: string) => {
    summary.rejected += 1;
    summary.errors.push({ line, message });
  };
  const write = async (current: Pending[], statements: Statement[], now: Date) => {
    try {
      await writeStatements(db, statements);
      summary.imported += current.length;
    } catch (err) {
      // Validation passed, so the database refused something (a value too long for a column, say):
      // retry line by line so that only the lines it refuses are lost, each reported.
      if (current.length === 1) {
        reject((current[0] as Pending).line, `not written: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        for (const item of current) {
          try {
            await writeStatements(db, batchStatements(db.dialect, [item], now));
            summary.imported += 1;
          } catch (lineErr) {
            reject(item.line, `not written: ${lineErr instanceof Error ? lineErr.message : String(lineErr)}`);
          }
        }
      }
    }
    options.onProgress?.(summary);
  };

  let batch: Pending[] = [];
  let writing: Promise<void> | undefined;
  let inFlight = false;
  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    const now = new Date();
    const statements = batchStatements(db.dialect, current, now);
    await writing;
    inFlight = true;
    writing = write(current, statements, now).finally(() => {
      inFlight = false;
    });
    // Awaited before the next batch or at the end; until then a failure must not count as unhandled.
    writing.catch(() => {});
    // SQLite writes on this thread, so reading on beside it gains nothing, and would keep the file's
    // write lock while the next batch is read.
    if (db.dialect !== 'postgresql') await writing;
  };

  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber += 1;
    // A byte-order mark some editors write at the start of a file is not part of the JSON.
    const text = (lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') continue;
    summary.lines += 1;
    try {
      batch.push({ line: lineNumber, row: parseImportLine(text) });
    } catch (err) {
      if (!(err instanceof ImportLineError)) throw err;
      reject(lineNumber, err.message);
      continue;
    }
    if (batch.length >= batchSize) await flush();
    // A write in flight sends its next statement only when its answer is handled, which a loop over
    // lines already in memory (or buffered by the stream) would put off until the batch is read.
    else if (inFlight && (lineNumber & YIELD_EVERY_MASK) === 0) await yieldToIo();
  }
  await flush();
  await writing;
  summary.errors.sort((a, b) => a.line - b.line);
  return summary;
}

// Lines parsed (1–3 ms of work) between turns of the event loop while a write is in flight.
const YIELD_EVERY_MASK = 255;
const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Reads a JSON Lines file as a stream, so that files of millions of lines import in constant memory. */
export function readLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
}
