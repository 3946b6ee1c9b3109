import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isoTimestamp, isStoredTimestamp } from '../../../platform/iso-timestamp.js';
import { type ChainAddress, type TxtRecord, type TxtRecordType, txtRecordType } from '../../identity/index.js';
import { ADDRESS_RULE, normalizeMoveAddress } from './address.js';
import { InvalidNameError, normalizeMnsName, parentOf } from './name.js';
import { InvalidNetworkError, type MnsNetwork, networksOf, parseChainId } from './networks.js';
import type { MnsName } from './store.js';

// Reading `names:import`'s input: one JSON line (the format is in import.ts) into the row it stands for.

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
  const trimmed = typeof v === 'string' ? v.trim() : '';
  if (trimmed === '') throw new ImportLineError(`"${field}" must be a non-empty string`);
  return trimmed;
}

function optionalString(obj: Record<string, unknown>, field: string, max = MAX_TEXT): string | null {
  const v = obj[field];
  if (absent(v)) return null;
  if (typeof v !== 'string') throw new ImportLineError(`"${field}" must be a string`);
  if (v.length > max) throw new ImportLineError(`"${field}" is longer than ${max} characters`);
  const trimmed = v.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * The address's normalized form (see normalizeMoveAddress, which hands an address already in that form,
 * as exports usually write it, back as it is); the value itself is stored as given.
 */
function addressKey(value: string, field: string): string {
  const key = normalizeMoveAddress(value);
  if (!key) throw new ImportLineError(`"${field}" must be a Movement address (${ADDRESS_RULE}), got "${value}"`);
  return key;
}

/**
 * A timestamp with a zone in its stored form (`isoTimestamp`'s), or null when it is not ISO 8601 with a
 * zone or names no real time. A value already in the stored form (what exports usually write) is a real
 * time exactly when its fields are in range, and is then stored as it is, without the costlier parse.
 */
export function storedTimestamp(value: string): string | null {
  if (isStoredTimestamp(value)) return value;
  const ms = ISO_TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? null : isoTimestamp(ms);
}

/** The field's timestamp as it is stored, or null when absent. */
function timestamp(obj: Record<string, unknown>, field: string): string | null {
  const v = optionalString(obj, field, 64);
  if (v === null) return null;
  const stored = storedTimestamp(v);
  if (stored === null)
    throw new ImportLineError(`"${field}" must be an ISO 8601 timestamp with a zone, e.g. 2026-01-31T12:00:00Z`);
  return stored;
}

/** The field's array, every entry checked to be an object (before any entry's own fields are). */
function list(obj: Record<string, unknown>, field: string): Record<string, unknown>[] {
  const v = obj[field];
  if (absent(v)) return [];
  if (!Array.isArray(v)) throw new ImportLineError(`"${field}" must be an array`);
  if (v.length > 1000) throw new ImportLineError(`"${field}" has more than 1000 entries`);
  for (let i = 0; i < v.length; i++) {
    if (!isObject(v[i])) throw new ImportLineError(`"${field}[${i}]" must be an object`);
  }
  return v as Record<string, unknown>[];
}

// A name already in its stored form (one lower-case ASCII label and the suffix), as exports usually
// write it: normalizeMnsName would return it unchanged.
const STORED_NAME = /^[a-z0-9_-]{1,63}\.snow$/;

function nameOf(obj: Record<string, unknown>): string {
  const name = requiredString(obj, 'name');
  if (STORED_NAME.test(name)) return name;
  try {
    return normalizeMnsName(name);
  } catch (err) {
    if (err instanceof InvalidNameError) throw new ImportLineError(`"name" ${err.message}`);
    throw err;
  }
}

// The few CAIP-2 ids a file spells its networks with, each resolved once (networksOf is pure).
const networkById = new Map<string, MnsNetwork>();

function networkOf(obj: Record<string, unknown>): MnsNetwork {
  const id = requiredString(obj, 'caip2Id');
  let network = networkById.get(id);
  if (network === undefined) {
    try {
      network = networksOf(id, { wildcard: false })[0] as MnsNetwork;
    } catch (err) {
      if (err instanceof InvalidNetworkError) throw new ImportLineError(`"caip2Id": ${err.message}`);
      throw err;
    }
    if (networkById.size < 64) networkById.set(id, network);
  }
  return network;
}

function txtRecordsOf(obj: Record<string, unknown>): TxtRecord[] {
  const items = list(obj, 'txtRecords');
  const records = new Array<TxtRecord>(items.length);
  for (let i = 0; i < items.length; i++) {
    const r = items[i] as Record<string, unknown>;
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
    for (const k in r) {
      if (k !== 'key' && k !== 'value' && k !== 'type')
        throw new ImportLineError(`"txtRecords[${i}]" has unknown field "${k}"`);
    }
    const trimmed = key.trim();
    records[i] = { key: trimmed, value, type: (r.type as TxtRecordType | null | undefined) ?? txtRecordType(trimmed) };
  }
  return records;
}

function multichainAddressesOf(obj: Record<string, unknown>): ChainAddress[] {
  const items = list(obj, 'multichainAddresses');
  const addresses = new Array<ChainAddress>(items.length);
  for (let i = 0; i < items.length; i++) {
    const a = items[i] as Record<string, unknown>;
    const address = a.address;
    if (typeof address !== 'string' || address.trim() === '' || address.length > 255) {
      throw new ImportLineError(`"multichainAddresses[${i}].address" must be a non-empty string`);
    }
    // A matched id is `namespace:reference` exactly, so it is stored as trimmed.
    const caip2Id = typeof a.caip2Id === 'string' ? a.caip2Id.trim() : null;
    const chain = caip2Id === null ? null : parseChainId(caip2Id);
    if (!chain || chain.reference === '*') {
      throw new ImportLineError(`"multichainAddresses[${i}].caip2Id" must be a CAIP-2 chain id such as eip155:1`);
    }
    for (const k in a) {
      if (k !== 'address' && k !== 'caip2Id')
        throw new ImportLineError(`"multichainAddresses[${i}]" has unknown field "${k}"`);
    }
    addresses[i] = { address: address.trim(), caip2Id: caip2Id as string };
  }
  return addresses;
}

/**
 * A validated line as it is written: its timestamps and lists already in their stored text. The lists'
 * JSON is written as the line is parsed, so that a window of rows waiting for their transaction holds
 * two strings a row rather than two arrays of objects.
 */
export interface ImportRow extends Omit<MnsName, 'registeredAt' | 'expireAt' | 'txtRecords' | 'multichainAddresses'> {
  registeredAt: string | null;
  expireAt: string | null;
  txtRecords: string;
  multichainAddresses: string;
}

/**
 * Validates one line and returns the row it stands for; throws `ImportLineError` saying what is wrong,
 * the first problem in the order of the checks below (a line's message must not depend on the build).
 */
export function parseRow(text: string): ImportRow {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    throw new ImportLineError(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isObject(obj)) throw new ImportLineError('must be a JSON object');
  for (const k in obj) {
    if (FIELDS.has(k)) continue;
    const unknown = Object.keys(obj).filter((f) => !FIELDS.has(f));
    throw new ImportLineError(
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')}`,
    );
  }

  const name = nameOf(obj);
  const network = networkOf(obj);
  const owner = requiredString(obj, 'owner');
  const ownerKey = addressKey(owner, 'owner');
  const resolver = optionalString(obj, 'resolverAddress', 255);
  if (!absent(obj.primary) && typeof obj.primary !== 'boolean')
    throw new ImportLineError('"primary" must be true or false');
  const avatar = optionalString(obj, 'avatar', 2048);
  if (avatar !== null && !URL.canParse(avatar)) throw new ImportLineError('"avatar" must be a URL');
  const txtRecords = json(txtRecordsOf(obj));
  const multichainAddresses = json(multichainAddressesOf(obj));
  const resolverAddress = resolver !== null && addressKey(resolver, 'resolverAddress') ? resolver : null;
  const registeredAt = timestamp(obj, 'registeredAt');
  const expireAt = timestamp(obj, 'expireAt');
  return {
    name,
    network,
    owner,
    ownerKey,
    resolverAddress,
    primary: obj.primary === true,
    registeredAt,
    expireAt,
    avatar,
    txtRecords,
    multichainAddresses,
    parent: parentOf(name),
  };
}

const json = (list: readonly unknown[]): string => (list.length ? JSON.stringify(list) : '[]');

/** Reads a JSON Lines file as a stream, so that files of millions of lines import in constant memory. */
export function readLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
}
