import { getAddress, isAddress } from 'viem';
import { deadline } from '../../../../platform/deadline.js';
import { createHttpClient } from '../../../../platform/upstream/index.js';
import { enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import { txtRecordType } from '../txt-records.js';
import type { LookupOptions, NameRecord, NamingProvider, TxtRecord } from '../types.js';
import {
  ACCOUNT_QUERY,
  type AccountAnswer,
  type GraphqlAnswer,
  type LensAccount,
  REVERSE_QUERY,
  type ReverseAnswer,
} from './graphql.js';
import { LENS_CHAIN, LENS_INFO } from './info.js';
import { parseLensUsername } from './username.js';

export interface LensProviderOptions {
  /** The Lens API's GraphQL endpoint (`LENS_API_URL`), `https://api.lens.xyz/graphql` on mainnet. */
  apiUrl: string;
  /** Sent as `x-lens-app` (`LENS_API_KEY`), the app's API key. */
  apiKey?: string | undefined;
  /** Budget of one lookup. */
  timeoutMs: number;
  maxBodyBytes?: number | undefined;
  /** Overrides of the HTTP client's resilience settings (tests use short ones). */
  http?: { breaker?: false; backoff?: { baseMs?: number; maxMs?: number } };
}

/**
 * Lens usernames of the global namespace as a naming provider, through the Lens v3 GraphQL API. A name
 * resolves to its Lens Account on Lens Chain; the account's owner follows it in `multichainAddresses`,
 * and its metadata gives the avatar and the `name` and `description` text records. Usernames do not
 * expire; `registeredAt` is when the username was created.
 *
 * @example
 * const lens = createLensProvider({ apiUrl: 'https://api.lens.xyz/graphql', timeoutMs: 4000 });
 * await lens.records('stani.lens');
 */
export function createLensProvider(options: LensProviderOptions): NamingProvider {
  const { timeoutMs } = options;
  // The client joins a base URL and a path; the endpoint's last segment is the path, so no slash is added.
  const endpoint = new URL(options.apiUrl);
  const path = endpoint.pathname.split('/').pop() ?? '';
  const http = createHttpClient({
    name: 'lens',
    baseUrl: new URL(`.${endpoint.search}`, endpoint).toString(),
    headers: options.apiKey ? { 'x-lens-app': options.apiKey } : undefined,
    timeoutMs,
    retries: 1,
    maxBodyBytes: options.maxBodyBytes,
    ...options.http,
  });

  async function query<T>(
    document: string,
    variables: Record<string, unknown>,
    lookupOptions: LookupOptions | undefined,
  ): Promise<T> {
    const limit = deadline(timeoutMs, lookupOptions?.signal);
    try {
      const answer = await http.postJson<GraphqlAnswer<T>>(
        path,
        { query: document, variables },
        { signal: limit.signal },
      );
      if (answer.errors?.length || !answer.data) {
        throw new UpstreamError('lens', `GraphQL error: ${answer.errors?.[0]?.message ?? 'no data'}`);
      }
      return answer.data;
    } catch (err) {
      if (limit.timedOut) throw new UpstreamError('lens', `no answer within ${timeoutMs} ms`, { cause: err });
      if (err instanceof UpstreamError) throw err;
      if (limit.signal.aborted) throw new UpstreamError('lens', 'lookup aborted', { cause: err });
      throw new UpstreamError('lens', `request failed: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    } finally {
      limit.clear();
    }
  }

  return {
    info: LENS_INFO,
    status: enabled,

    normalize: (name) => `${parseLensUsername(name)}.lens`,

    async resolve(name, options) {
      return (await this.records(name, options))?.ownerAddress ?? null;
    },

    async records(name, options) {
      const localName = tryParse(name);
      if (localName === null) return null;
      const { account } = await query<AccountAnswer>(ACCOUNT_QUERY, { request: { username: { localName } } }, options);
      // The API answers the account the username links to; one under another name is not this one's.
      return account && globalName(account) === `${localName}.lens` ? toRecord(account) : null;
    },

    /**
     * The username of a Lens Account, or of the first account the address owns that has one; the
     * API answers both in one request. Accounts the address only manages are someone else's.
     */
    async reverse(address, options) {
      if (!isAddress(address, { strict: false })) return null;
      const answer = await query<ReverseAnswer>(
        REVERSE_QUERY,
        { account: { address }, available: { managedBy: address, includeOwned: true } },
        options,
      );
      const own = answer.account ? globalName(answer.account) : null;
      if (own) return own;
      for (const item of answer.accountsAvailable?.items ?? []) {
        if (item.__typename !== 'AccountOwned' || !item.account) continue;
        const name = sameAddress(item.account.owner, address) ? globalName(item.account) : null;
        if (name) return name;
      }
      return null;
    },

    async candidates() {
      // Listing by prefix would be the API's search, which ranks rather than lists; names come from the index.
      return [];
    },
  };
}

function tryParse(name: string): string | null {
  try {
    return parseLensUsername(name);
  } catch {
    return null;
  }
}

/** `stani.lens` for a username of the global namespace (`lens/stani`); null for none or another namespace. */
function globalName(account: LensAccount): string | null {
  const value = account.username?.value;
  if (!value?.startsWith('lens/')) return null;
  return tryParse(value) === null ? null : `${value.slice('lens/'.length).toLowerCase()}.lens`;
}

function toRecord(account: LensAccount): NameRecord {
  const address = evmAddress(account.address);
  const owner = evmAddress(account.owner);
  const multichainAddresses = [address, owner]
    .filter((a, i, all): a is string => a !== null && all.indexOf(a) === i)
    .map((a) => ({ address: a, caip2Id: LENS_CHAIN }));
  const txtRecords: TxtRecord[] = [];
  for (const [key, value] of [
    ['name', account.metadata?.name],
    ['description', account.metadata?.bio],
  ] as const) {
    if (value) txtRecords.push({ key, value, type: txtRecordType(key) });
  }
  return {
    name: globalName(account) as string,
    ownerAddress: address,
    caip2Id: LENS_CHAIN,
    avatar: asUrl(account.metadata?.picture),
    expireAt: null,
    registeredAt: asDate(account.username?.timestamp) ?? asDate(account.createdAt),
    multichainAddresses,
    txtRecords,
  };
}

function evmAddress(value: string | undefined | null): string | null {
  return value && isAddress(value, { strict: false }) ? getAddress(value) : null;
}

const sameAddress = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

function asDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Metadata pictures are URIs (`lens://…` storage keys, `ipfs://…`, `https://…`); only a URL can be an avatar. */
function asUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return ['https:', 'http:', 'ipfs:', 'ar:', 'lens:'].includes(url.protocol) ? value : null;
  } catch {
    return null;
  }
}
