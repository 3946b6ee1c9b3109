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

function address(value: string, field: string): string {
  if (!normalizeMoveAddress(value))
    throw new ImportLineError(`"${field}" must be a Movement address (${ADDRESS_RULE}), got "${value}"`);
  return value;
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
  const owner = address(requiredString(obj, 'owner'), 'owner');
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
    ownerKey: normalizeMoveAddress(owner) as string,
    resolverAddress: resolver === null ? null : address(resolver, 'resolverAddress'),
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

const INSERT_COLUMNS =
  'name, network, parent, owner, owner_key, resolver_address, is_primary, registered_at, expire_at, avatar, txt_records, multichain_addresses, updated_at';
const UPDATE_SET = INSERT_COLUMNS.split(', ')
  .filter((c) => c !== 'name' && c !== 'network')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');
const ROW_PLACEHOLDERS = `(${INSERT_COLUMNS.split(', ')
  .map(() => '?')
  .join(', ')})`;
// PostgreSQL types of INSERT_COLUMNS, in order, for the column-array form below.
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
  'timestamptz',
];
const PG_UNNEST = `select * from unnest(${PG_TYPES.map((t) => `?::${t}[]`).join(', ')})`;

/** One PostgreSQL array literal (`{"a",NULL}`) of a column's values. */
function pgArray(values: unknown[]): string {
  return `{${values
    .map((v) => {
      if (v === null || v === undefined) return 'NULL';
      const text = v instanceof Date ? v.toISOString() : String(v);
      return `"${text.replace(/[\\"]/g, '\\$&')}"`;
    })
    .join(',')}}`;
}

/**
 * Writes one batch in one transaction with the outcome of applying its lines in file order: a later
 * line for the same name replaces an earlier one, and a primary line demotes every other primary name
 * of its owner on its network, whether stored before or earlier in the batch.
 */
async function writeBatch(db: ImportDatabase, batch: Pending[], now: Date): Promise<void> {
  const rows = new Map<string, MnsName>();
  const primaryOf = new Map<string, string>();
  const demote = new Map<MnsNetwork, Set<string>>();
  for (const { row: original } of batch) {
    const row = { ...original };
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
      if (holder !== undefined && holder !== key) (rows.get(holder) as MnsName).primary = false;
      primaryOf.set(holderKey, key);
      const owners = demote.get(row.network) ?? new Set<string>();
      owners.add(row.ownerKey);
      demote.set(row.network, owners);
    }
  }
  const params: unknown[] = [];
  for (const r of rows.values()) {
    params.push(
      r.name,
      r.network,
      r.parent,
      r.owner,
      r.ownerKey,
      r.resolverAddress,
      r.primary,
      r.registeredAt,
      r.expireAt,
      r.avatar,
      JSON.stringify(r.txtRecords),
      JSON.stringify(r.multichainAddresses),
      now,
    );
  }
  await db.transaction(async (tx) => {
    for (const [network, owners] of demote) {
      await tx.run(
        `update mns_name set is_primary = false, updated_at = ? where network = ? and is_primary and owner_key in (${[...owners].map(() => '?').join(', ')})`,
        [now, network, ...owners],
      );
    }
    // PostgreSQL plans a VALUES list of 13 000 values far slower than 13 arrays unnested into rows
    // (about twice the names per second); SQLite binds them quickly.
    const pg = db.dialect === 'postgresql';
    await tx.run(
      `insert into mns_name (${INSERT_COLUMNS}) ${pg ? PG_UNNEST : `values ${Array.from(rows.values(), () => ROW_PLACEHOLDERS).join(', ')}`}
       on conflict (name, network) do update set ${UPDATE_SET}, source = 'import'`,
      pg ? PG_TYPES.map((_, col) => pgArray(params.filter((_, i) => i % PG_TYPES.length === col))) : params,
    );
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

/** Imports JSON Lines (see the format above) in batched transactions. A bad line is skipped and reported. */
export async function importNames(
  db: ImportDatabase,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 1000;
  const summary: ImportSummary = { lines: 0, imported: 0, rejected: 0, errors: [] };
  const reject = (line: number, message: string) => {
    summary.rejected += 1;
    summary.errors.push({ line, message });
  };
  let batch: Pending[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    const now = new Date();
    try {
      await writeBatch(db, current, now);
      summary.imported += current.length;
    } catch (err) {
      // Validation passed, so the database refused something (a value too long for a column, say):
      // retry line by line so that only the lines it refuses are lost, each reported.
      if (current.length === 1) {
        reject((current[0] as Pending).line, `not written: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        for (const item of current) {
          try {
            await writeBatch(db, [item], now);
            summary.imported += 1;
          } catch (lineErr) {
            reject(item.line, `not written: ${lineErr instanceof Error ? lineErr.message : String(lineErr)}`);
          }
        }
      }
    }
    options.onProgress?.(summary);
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
  }
  await flush();
  summary.errors.sort((a, b) => a.line - b.line);
  return summary;
}

/** Reads a JSON Lines file as a stream, so that files of millions of lines import in constant memory. */
export function readLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
}
