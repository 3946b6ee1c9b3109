import { createHttpClient, type HttpClient, UpstreamHttpError } from '../../../platform/upstream/index.js';
import { type TxtRecord, txtRecordType } from '../../identity/index.js';
import { normalizeMoveAddress } from '../registry/address.js';
import { caip2IdOf, type MnsNetwork } from '../registry/networks.js';
import { TtlCache } from './ttl-cache.js';
import type {
  MnsSource,
  NameRecords,
  SourceChainAddress,
  SourceName,
  SourceOptions,
  SourcePrimaryName,
  SourceSubName,
} from './types.js';

export const UPSTREAM_SOURCE = 'upstream';

/** The spec's batch limit: the upstream refuses larger batches. */
const UPSTREAM_MAX_BATCH = 1000;

export interface UpstreamSourceOptions {
  /** Base of the upstream's public interface, e.g. `https://api.example/api/public` (as the SDK's baseUrl). */
  baseUrl: string;
  timeoutMs: number;
  retries?: number;
  maxBodyBytes?: number;
  cacheTtlMs: number;
  cacheMaxEntries: number;
  /** Injected for tests. */
  http?: HttpClient;
  now?: () => number;
}

// The spec's public shapes (service-spec.md, "Public interface"), plus the optional `caip2Id` and
// `subIdentities` of an address answer that the published client's types (@snowballmoney/mns-sdk) know.
interface AddressAnswer {
  owner: string | null;
  resolverAddress: string | null;
  caip2Id?: string;
  subIdentities?: { name: string; address: string }[];
}
interface AddressesAnswer {
  data: (AddressAnswer | null)[];
}
interface NamesAnswer {
  data: Record<string, { name: string; owner: string } | null>;
}
interface MetadataAnswer {
  metadata: { key: string; value: string }[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * An upstream speaking the spec's public interface (an operator's existing deployment, or another
 * cipgate): forward and reverse lookups go through its batch calls, one call per network for a whole
 * DataLoader batch; metadata and sub-names through its single-name calls. Answers, "not found" included,
 * are cached for a TTL in a bounded cache. 404 and other refusals (e.g. a network the upstream does not
 * serve) mean "unknown here", so the next source is asked; outages throw and fail the lookup as a 503.
 */
export function createUpstreamSource(options: UpstreamSourceOptions): MnsSource {
  const http =
    options.http ??
    createHttpClient({
      name: 'mns-upstream',
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      retries: options.retries ?? 1,
      maxBodyBytes: options.maxBodyBytes,
    });
  const cache = new TtlCache<unknown>(options.cacheTtlMs, options.cacheMaxEntries, options.now);

  /** Null when the upstream refused the question (it does not know the name, network or chain). */
  async function ask<T>(call: () => Promise<T>): Promise<T | null> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.isClientError) return null;
      throw err;
    }
  }

  /**
   * The cached answers of `keys` under `scope`, and one batched upstream question (per chunk of the
   * upstream's batch limit) for the rest; what the upstream does not know is cached as null.
   */
  async function batched<V>(
    scope: string,
    keys: readonly string[],
    fetch: (missing: string[]) => Promise<Map<string, V>>,
  ): Promise<Map<string, V>> {
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const hit = cache.get(`${scope}\u0000${key}`);
      if (hit === undefined) missing.push(key);
      else if (hit !== null) found.set(key, hit as V);
    }
    for (let i = 0; i < missing.length; i += UPSTREAM_MAX_BATCH) {
      const chunk = missing.slice(i, i + UPSTREAM_MAX_BATCH);
      const answers = await fetch(chunk);
      for (const key of chunk) {
        const value = answers.get(key);
        cache.set(`${scope}\u0000${key}`, value ?? null);
        if (value !== undefined) found.set(key, value);
      }
    }
    return found;
  }

  /** The names on `caip2Id` that have an owner, with it and their resolver address, through the spec's batch call. */
  async function owned(
    caip2Id: string,
    names: string[],
    signal?: AbortSignal,
  ): Promise<Map<string, { owner: string; resolverAddress: string | null }>> {
    const answer = await ask(() =>
      http.postJson<AddressesAnswer>('public-identity/addresses', { caip2Id, names }, { signal }),
    );
    const found = new Map<string, { owner: string; resolverAddress: string | null }>();
    names.forEach((name, i) => {
      const owner = str(answer?.data?.[i]?.owner);
      if (owner !== null) found.set(name, { owner, resolverAddress: str(answer?.data?.[i]?.resolverAddress) });
    });
    return found;
  }

  function toRecords(answer: MetadataAnswer): NameRecords {
    const txtRecords: TxtRecord[] = [];
    let avatar: string | null = null;
    for (const entry of answer.metadata ?? []) {
      const key = str(entry?.key);
      const value = str(entry?.value);
      if (key === null || value === null) continue;
      // This service keeps the avatar beside the records and lists it last; keep the same split.
      if (key === 'avatar') avatar = value;
      else txtRecords.push({ key, value, type: txtRecordType(key) });
    }
    return { avatar, txtRecords, multichainAddresses: [] };
  }

  return {
    name: UPSTREAM_SOURCE,

    names(network, names, { signal }: SourceOptions = {}) {
      return batched<SourceName>(`name\u0000${network}`, names, async (missing) => {
        const found = new Map<string, SourceName>();
        for (const [name, { owner, resolverAddress }] of await owned(caip2IdOf(network), missing, signal)) {
          found.set(name, {
            name,
            network,
            owner,
            resolverAddress,
            // The public interface does not tell registration dates; it only answers live names.
            registeredAt: null,
            expireAt: null,
            records: null,
            source: UPSTREAM_SOURCE,
          });
        }
        return found;
      });
    },

    primaryNames(network, keys, { signal }: SourceOptions = {}) {
      return batched<SourcePrimaryName>(`primary\u0000${network}`, keys, async (missing) => {
        const answer = await ask(() =>
          http.postJson<NamesAnswer>('identity/names', { caip2Id: caip2IdOf(network), addresses: missing }, { signal }),
        );
        const found = new Map<string, SourcePrimaryName>();
        // Keyed by the address as sent; normalizing the keys also accepts an upstream that rewrites them.
        for (const [address, entry] of Object.entries(answer?.data ?? {})) {
          const key = normalizeMoveAddress(address);
          const name = str(entry?.name);
          const owner = str(entry?.owner);
          if (key && name && owner) found.set(key, { name, network, owner });
        }
        return found;
      });
    },

    records(network, names, { signal }: SourceOptions = {}) {
      // The spec has no batch metadata call; its metadata call takes no network and answers from mainnet
      // first, so ask it only for names the upstream answered on `network`.
      return batched<NameRecords>(`records\u0000${network}`, names, async (missing) => {
        const found = new Map<string, NameRecords>();
        await Promise.all(
          missing.map(async (name) => {
            const answer = await ask(() =>
              http.getJson<MetadataAnswer>(`identity/metadata/${encodeURIComponent(name)}`, {}, { signal }),
            );
            if (answer) found.set(name, toRecords(answer));
          }),
        );
        return found;
      });
    },

    subNames(network, parents, limit, { signal }: SourceOptions = {}) {
      return batched<SourceSubName[]>(`subs\u0000${network}`, parents, async (missing) => {
        const found = new Map<string, SourceSubName[]>();
        await Promise.all(
          missing.map(async (name) => {
            const answer = await ask(() =>
              http.getJson<AddressAnswer>('identity/address', { name, caip2Id: caip2IdOf(network) }, { signal }),
            );
            if (!answer) return;
            const subs = (answer.subIdentities ?? [])
              .filter((s) => str(s?.name) && str(s?.address))
              .map((s) => ({ name: s.name, owner: s.address }));
            found.set(name, subs.slice(0, limit));
          }),
        );
        return found;
      });
    },

    chainAddresses(caip2Id, networks, names, { signal }: SourceOptions = {}) {
      // Asked as the snap asks: the chain's own id, answered in resolverAddress. An upstream that only
      // speaks the spec refuses a non-Movement id, which leaves these names to the next source.
      return batched<SourceChainAddress>(`chain\u0000${caip2Id}`, names, async (missing) => {
        const found = new Map<string, SourceChainAddress>();
        for (const [name, { owner, resolverAddress }] of await owned(caip2Id, missing, signal)) {
          found.set(name, {
            owner,
            address: resolverAddress,
            network: networks[0] as MnsNetwork,
            source: UPSTREAM_SOURCE,
          });
        }
        return found;
      });
    },
  };
}
