import { deadline } from '../../../../platform/deadline.js';
import { createHttpClient } from '../../../../platform/upstream/client.js';
import { enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import { txtRecordType } from '../txt-records.js';
import type { LookupOptions, NameRecord, NamingProvider, TxtRecord } from '../types.js';
import { SUI_MAINNET, SUINS_INFO } from './info.js';
import { normalizeSuiName } from './normalize.js';

export { SUINS_INFO };

export interface SuinsProviderOptions {
  /** Sui mainnet GraphQL endpoint (`SUI_GRAPHQL_URL`), e.g. `https://graphql.mainnet.sui.io/graphql`. */
  graphqlUrl: string;
  /** Budget of one lookup, its retry included. */
  timeoutMs: number;
  /** Longest answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
  now?: () => Date;
}

/**
 * A name's record as Sui GraphQL serves it (`Query.nameRecord`, type `NameRecord`): `domain`, `target`
 * (null when the name points nowhere) and `contents`, the on-chain `suins::name_record::NameRecord`
 * rendered by `MoveValue.json` (u64 as strings, `Option` as null or its value, `VecMap` as
 * `{contents: [{key, value}]}`). `parent` is the parent name's record, for a subname whose expiry is its
 * parent's (a leaf record stores 0).
 */
const NAME_QUERY = `query SuinsName($name: String!) {
  nameRecord(name: $name) {
    domain
    target { address }
    contents { json }
    parent { contents { json } }
  }
}`;

/** `Address.defaultNameRecord`: the address's default (reverse) name, with its forward record. */
const DEFAULT_NAME_QUERY = `query SuinsDefaultName($address: SuiAddress!) {
  address(address: $address) {
    defaultNameRecord {
      domain
      target { address }
    }
  }
}`;

interface GraphqlRecord {
  domain?: unknown;
  target?: { address?: unknown } | null;
  contents?: { json?: unknown } | null;
  parent?: { contents?: { json?: unknown } | null } | null;
}

/** What the provider reads of an on-chain `NameRecord`. */
interface RecordFields {
  expirationMs: number | null;
  data: [string, string][];
}

/**
 * SuiNS (`.sui`) as a naming provider, through Sui's GraphQL API (the JSON-RPC `suix_*` name methods
 * were deprecated and planned for deactivation in July 2026). GraphQL answers only live names; expiry is
 * checked here too, so a record that arrives expired is still not found. A name's target address is its
 * owner here; the registration NFT's holder is not used (SuiNS: "don't use NFT ownership for
 * resolution"). The record's user data (`avatar`, `content_hash`, `walrus_site_id`) becomes the avatar
 * and text records.
 *
 * @example
 * const suins = createSuinsProvider({ graphqlUrl: 'https://graphql.mainnet.sui.io/graphql', timeoutMs: 4000 });
 * await suins.resolve('alice.sui');
 */
export function createSuinsProvider(options: SuinsProviderOptions): NamingProvider {
  const { timeoutMs } = options;
  const url = new URL(options.graphqlUrl);
  // The client joins a base and a path; the endpoint's last segment is the path, so no slash is added.
  const cut = url.pathname.lastIndexOf('/');
  const client = createHttpClient({
    name: SUINS_INFO.provider,
    baseUrl: `${url.origin}${url.pathname.slice(0, cut)}`,
    timeoutMs,
    retries: 1,
    maxBodyBytes: options.maxBodyBytes,
  });
  const path = `${url.pathname.slice(cut + 1)}${url.search}`;
  const now = options.now ?? (() => new Date());

  async function query<T>(text: string, variables: Record<string, string>, signal?: AbortSignal): Promise<T> {
    const limit = deadline(timeoutMs, signal);
    let answer: { data?: T | null; errors?: { message?: unknown }[] };
    try {
      answer = await client.postJson(path, { query: text, variables }, { signal: limit.signal });
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw new UpstreamError(
        SUINS_INFO.provider,
        limit.timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${String(err)}`,
        { cause: err },
      );
    } finally {
      limit.clear();
    }
    // A GraphQL error (a field the server does not know, a limit) is the upstream failing, not "no name".
    if (answer?.errors?.length || !answer?.data) {
      const message = answer?.errors?.map((e) => String(e.message)).join('; ') || 'no data';
      throw new UpstreamError(SUINS_INFO.provider, `Sui GraphQL answered with errors: ${message}`);
    }
    return answer.data;
  }

  /** A name's record while it is registered and unexpired, else null. */
  async function live(name: string, signal?: AbortSignal) {
    const data = await query<{ nameRecord?: GraphqlRecord | null }>(NAME_QUERY, { name }, signal);
    const record = data.nameRecord;
    if (!record || record.domain !== name) return null;
    const own = recordFields(record.contents?.json);
    // A subname's own record stores expiry 0: it lives as long as its parent.
    const expirationMs = own.expirationMs || recordFields(record.parent?.contents?.json).expirationMs || null;
    if (expirationMs !== null && expirationMs <= now().getTime()) return null;
    const target = typeof record.target?.address === 'string' ? suiAddress(record.target.address) : null;
    return { name, target, expireAt: expirationMs === null ? null : new Date(expirationMs), data: own.data };
  }

  return {
    info: SUINS_INFO,
    status: enabled,

    normalize: normalizeSuiName,

    async resolve(name, options?: LookupOptions) {
      const parsed = tryNormalize(name);
      return parsed ? ((await live(parsed, options?.signal))?.target ?? null) : null;
    },

    async reverse(address, options) {
      if (!/^0x[0-9a-fA-F]{64}$/.test(address)) return null;
      const wanted = address.toLowerCase();
      const data = await query<{ address?: { defaultNameRecord?: GraphqlRecord | null } | null }>(
        DEFAULT_NAME_QUERY,
        { address: wanted },
        options?.signal,
      );
      const record = data.address?.defaultNameRecord;
      const name = typeof record?.domain === 'string' ? tryNormalize(record.domain) : null;
      const target = typeof record?.target?.address === 'string' ? suiAddress(record.target.address) : null;
      // A default name counts only while the name still points at the address.
      return name && target === wanted ? name : null;
    },

    async records(name, options): Promise<NameRecord | null> {
      const parsed = tryNormalize(name);
      if (!parsed) return null;
      const found = await live(parsed, options?.signal);
      if (!found) return null;
      let avatar: string | null = null;
      const txtRecords: TxtRecord[] = [];
      for (const [key, value] of found.data) {
        if (key === 'avatar' && isUrl(value)) avatar = value;
        // A non-URL avatar (an NFT's object id) stays visible as text.
        else txtRecords.push({ key, value, type: key === 'avatar' ? 'text' : txtRecordType(key) });
      }
      return {
        name: parsed,
        ownerAddress: found.target,
        caip2Id: SUI_MAINNET,
        avatar,
        expireAt: found.expireAt,
        registeredAt: null,
        multichainAddresses: found.target ? [{ address: found.target, caip2Id: SUI_MAINNET }] : [],
        txtRecords,
      };
    },

    async candidates() {
      // Sui GraphQL looks names up one by one; it cannot list them by prefix.
      return [];
    },
  };
}

/**
 * Expiry and user data of a rendered `NameRecord`. Also reads the dynamic field that holds it
 * (`Field<Domain, NameRecord>`, the record under `value`), should a server render that instead.
 */
function recordFields(json: unknown): RecordFields {
  const record = asObject(json);
  const inner = record && 'value' in record && !('expiration_timestamp_ms' in record) ? asObject(record.value) : record;
  if (!inner) return { expirationMs: null, data: [] };
  const raw = inner.expiration_timestamp_ms;
  const expirationMs = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : null;
  const entries = asObject(inner.data)?.contents;
  const data: [string, string][] = [];
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      const { key, value } = asObject(entry) ?? {};
      if (typeof key === 'string' && typeof value === 'string' && value !== '') data.push([key, value]);
    }
  }
  return { expirationMs, data };
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function tryNormalize(name: string): string | null {
  try {
    return normalizeSuiName(name);
  } catch {
    return null;
  }
}

/** Sui addresses in full form (`0x` + 64 lower-case hex), as they are compared and returned. */
function suiAddress(value: string): string | null {
  const m = /^0x([0-9a-fA-F]{1,64})$/.exec(value);
  return m ? `0x${(m[1] as string).toLowerCase().padStart(64, '0')}` : null;
}

function isUrl(value: string): boolean {
  try {
    return ['https:', 'http:', 'ipfs:', 'ar:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
