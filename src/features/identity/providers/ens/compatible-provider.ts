import { type Address, BaseError, type Client, createPublicClient, http, isAddress } from 'viem';
import { DEFAULT_MAX_BODY_BYTES, limitedFetch } from '../../../../platform/upstream/body.js';
import { disabled, enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import { txtRecordType } from '../txt-records.js';
import type { LookupOptions, NameRecord, NamingProvider, NamingProviderInfo } from '../types.js';
import { avatarUrl } from './avatar.js';
import { getAddress } from './get-address.js';
import { getExpiry } from './get-expiry.js';
import { getMultichainAddresses } from './get-multichain-addresses.js';
import { getPrimaryName } from './get-primary-name.js';
import { getRegistryRecord } from './get-registry-record.js';
import { getTextRecords } from './get-text-records.js';
import { normalizeName } from './normalize.js';
import { TEXT_RECORD_KEYS } from './text-keys.js';

export const DEFAULT_TIMEOUT_MS = 5_000;

/** Everything that distinguishes one ENS-style naming service from another. */
export interface EnsCompatibleProviderConfig {
  info: NamingProviderInfo;
  rpcUrl: string;
  registryAddress: Address;
  /** Registrar holding expiries of the direct children of `registrarName`; null when unknown. */
  baseRegistrarAddress: Address | null;
  /** Name owned by the base registrar (`eth`, `base.eth`). */
  registrarName: string;
  /** Coin types tried, in order, for the name's address on its own chain (forward and reverse check). */
  addressCoinTypes: readonly number[];
  /** Coin types read for `multichainAddresses`. */
  multichainCoinTypes: readonly number[];
  /** Registry reverse namespaces read, in order, for the primary name. */
  reverseNamespaces: readonly string[];
  /** ENSIP-19 L2 reverse registrar, read before the registry namespaces; null when the chain has none. */
  l2ReverseRegistrarAddress: Address | null;
  /** Renders NFT avatars at `<service>/<name>`; null leaves NFT avatars without a URL. */
  avatarService: string | null;
  textKeys?: readonly string[];
  /** Per-RPC-request timeout. */
  timeoutMs?: number;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
}

/**
 * A `NamingProvider` over any ENS-compatible registry reached by JSON-RPC: ENS itself, Basenames,
 * or a local deployment in tests.
 */
export function createEnsCompatibleProvider(config: EnsCompatibleProviderConfig): NamingProvider {
  const { info } = config;
  const maxBodyBytes = config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const client: Client = createPublicClient({
    // Batching sends the parallel reads of one lookup (text keys, coin types) in a single HTTP
    // round trip, which keeps `records` cheap without needing Multicall3 on the chain. One retry
    // covers a dropped connection; more would only delay reporting a dead upstream.
    transport: http(config.rpcUrl, {
      batch: true,
      timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retryCount: 1,
      retryDelay: 100,
      // viem checks the size too, but only cancels the stream, which leaves undici draining an endless
      // answer; the limited fetch aborts the request and so drops the connection.
      fetchFn: limitedFetch(maxBodyBytes),
      maxResponseBodySize: maxBodyBytes,
    }),
  });
  const textKeys = config.textKeys ?? TEXT_RECORD_KEYS;

  async function upstream<T>(operation: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await abortable(run(), signal);
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      const detail = err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
      throw new UpstreamError(info.provider, `${operation} failed: ${detail}`, { cause: err });
    }
  }

  function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (!signal) return promise;
    const aborted = () => new UpstreamError(info.provider, 'request aborted', { cause: signal.reason });
    if (signal.aborted) return Promise.reject(aborted());
    // viem's read actions take no AbortSignal, so the caller stops waiting and the request is left to
    // finish on its own (bounded by the transport timeout).
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(aborted());
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** A name that fails ENSIP-15 cannot be registered, so there is nothing to look up. */
  function tryNormalize(name: string): string | null {
    try {
      return normalizeName(name);
    } catch {
      return null;
    }
  }

  return {
    info,
    status: enabled,
    normalize: normalizeName,

    async resolve(name: string, options?: LookupOptions): Promise<string | null> {
      const normalized = tryNormalize(name);
      if (normalized === null) return null;
      return upstream('resolve', options?.signal, () =>
        getAddress(client, {
          name: normalized,
          registryAddress: config.registryAddress,
          coinTypes: config.addressCoinTypes,
        }),
      );
    },

    async reverse(address: string, options?: LookupOptions): Promise<string | null> {
      if (!isAddress(address, { strict: false })) return null;
      return upstream('reverse', options?.signal, () =>
        getPrimaryName(client, {
          address,
          registryAddress: config.registryAddress,
          reverseNamespaces: config.reverseNamespaces,
          l2ReverseRegistrarAddress: config.l2ReverseRegistrarAddress,
          coinTypes: config.addressCoinTypes,
        }),
      );
    },

    async records(name: string, options?: LookupOptions): Promise<NameRecord | null> {
      const normalized = tryNormalize(name);
      if (normalized === null) return null;
      return upstream('records', options?.signal, async () => {
        const registry = await getRegistryRecord(client, { name: normalized, registryAddress: config.registryAddress });
        if (registry === null) return null;
        const resolverAddress = registry.resolver;
        const [ownerAddress, texts, multichainAddresses, expireAt] = await Promise.all([
          resolverAddress
            ? getAddress(client, {
                name: normalized,
                registryAddress: config.registryAddress,
                resolverAddress,
                coinTypes: config.addressCoinTypes,
              })
            : null,
          resolverAddress ? getTextRecords(client, { name: normalized, resolverAddress, keys: textKeys }) : [],
          resolverAddress
            ? getMultichainAddresses(client, {
                name: normalized,
                resolverAddress,
                coinTypes: config.multichainCoinTypes,
              })
            : [],
          config.baseRegistrarAddress
            ? getExpiry(client, {
                name: normalized,
                baseRegistrarAddress: config.baseRegistrarAddress,
                registrarName: config.registrarName,
              })
            : null,
        ]);
        const avatarRecord = texts.find((t) => t.key === 'avatar')?.value;
        return {
          name: normalized,
          ownerAddress,
          caip2Id: info.caip2Id,
          avatar: avatarRecord
            ? avatarUrl(avatarRecord, { name: normalized, avatarService: config.avatarService })
            : null,
          expireAt,
          // ENS-style registrars keep only the expiry in storage; the registration time exists only in
          // event logs, which a plain RPC cannot search cheaply, so it is reported as unknown.
          registeredAt: null,
          multichainAddresses,
          txtRecords: texts.map(({ key, value }) => ({ key, value, type: txtRecordType(key) })),
        };
      });
    },

    // A chain holds no index of names by prefix; listing would need an indexer this provider does not have.
    async candidates(): Promise<string[]> {
      return [];
    },
  };
}

/**
 * A provider with no upstream configured: it says why in `status` and refuses every lookup, so a
 * caller that ignores the status gets an error rather than a misleading "no such name".
 */
export function createDisabledProvider(info: NamingProviderInfo, reason: string): NamingProvider {
  const refuse = async (): Promise<never> => {
    throw new UpstreamError(info.provider, `disabled: ${reason}`);
  };
  return {
    info,
    status: disabled(reason),
    normalize: normalizeName,
    resolve: refuse,
    reverse: refuse,
    records: refuse,
    async candidates() {
      return [];
    },
  };
}
