import { type Address, type Client, isAddress } from 'viem';
import { disabled, enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import { createEvmRpcClient, evmUpstream } from '../evm-rpc.js';
import { txtRecordType } from '../txt-records.js';
import type { LookupOptions, NameRecord, NamingProvider, NamingProviderInfo, ReverseOptions } from '../types.js';
import { avatarUrl } from './avatar.js';
import { guardedCcipRequest } from './ccip-request.js';
import { getAddress } from './get-address.js';
import { getExpiry } from './get-expiry.js';
import { getMultichainAddresses } from './get-multichain-addresses.js';
import { defaultReverseNamespaces, getPrimaryName } from './get-primary-name.js';
import { getRegistryRecord } from './get-registry-record.js';
import { getResolver } from './get-resolver.js';
import { getTextRecords } from './get-text-records.js';
import { normalizeName } from './normalize.js';
import { isEvmCoinType } from './reverse-namespace.js';
import { TEXT_RECORD_KEYS } from './text-keys.js';

export { DEFAULT_TIMEOUT_MS } from '../evm-rpc.js';

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
  /**
   * Registry reverse namespaces read, in order, for the primary name on the provider's own chain;
   * ENSIP-19's for `addressCoinTypes[0]` by default (own namespace, then `default.reverse`).
   */
  reverseNamespaces?: readonly string[];
  /** ENSIP-19 L2 reverse registrar, read before the registry namespaces; null when the chain has none. */
  l2ReverseRegistrarAddress: Address | null;
  /** Renders NFT avatars at `<service>/<name>`; null leaves NFT avatars without a URL. */
  avatarService: string | null;
  textKeys?: readonly string[];
  /** Per-RPC-request timeout. */
  timeoutMs?: number;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
  /** Allow CCIP-Read gateways on loopback/private networks (tests); refused by default. */
  ccipAllowPrivateHosts?: boolean;
}

/**
 * A `NamingProvider` over any ENS-compatible registry reached by JSON-RPC: ENS itself, Basenames,
 * or a local deployment in tests.
 */
export function createEnsCompatibleProvider(config: EnsCompatibleProviderConfig): NamingProvider {
  const { info } = config;
  const client: Client = createEvmRpcClient({
    rpcUrl: config.rpcUrl,
    timeoutMs: config.timeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    // EIP-3668 offchain names: viem follows `OffchainLookup` reverts in every call (gateway requests
    // bounded by the transport timeout and a 10 MiB answer); only the gateway address is screened here.
    ccipRequest: guardedCcipRequest({ allowPrivateHosts: config.ccipAllowPrivateHosts ?? false }),
  });
  // viem builds its ENSIP-15 tables on first use, which is slow; doing it now keeps that cost out of the
  // first lookup's deadline.
  normalizeName('eth');
  const ownCoinType = config.addressCoinTypes[0] ?? 60;
  const ownReverseNamespaces = config.reverseNamespaces ?? defaultReverseNamespaces(ownCoinType);
  const textKeys = config.textKeys ?? TEXT_RECORD_KEYS;

  const upstream = <T>(operation: string, signal: AbortSignal | undefined, run: () => Promise<T>) =>
    evmUpstream(info.provider, operation, signal, run);

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

    async reverse(address: string, options?: ReverseOptions): Promise<string | null> {
      if (!isAddress(address, { strict: false })) return null;
      const coinType = options?.coinType ?? ownCoinType;
      // Only EVM chains share this address format; another chain's primary name is keyed differently.
      if (!isEvmCoinType(coinType)) return null;
      const own = coinType === ownCoinType;
      return upstream('reverse', options?.signal, () =>
        getPrimaryName(
          client,
          own
            ? {
                address,
                registryAddress: config.registryAddress,
                coinType,
                reverseNamespaces: ownReverseNamespaces,
                l2ReverseRegistrarAddress: config.l2ReverseRegistrarAddress,
                coinTypes: config.addressCoinTypes,
              }
            : { address, registryAddress: config.registryAddress, coinType },
        ),
      );
    },

    async records(name: string, options?: LookupOptions): Promise<NameRecord | null> {
      const normalized = tryNormalize(name);
      if (normalized === null) return null;
      return upstream('records', options?.signal, async () => {
        const [registry, resolver] = await Promise.all([
          getRegistryRecord(client, { name: normalized, registryAddress: config.registryAddress }),
          getResolver(client, { name: normalized, registryAddress: config.registryAddress }),
        ]);
        // Wildcard and offchain names have no node of their own in the registry: their resolver decides.
        if (registry === null && resolver === null) return null;
        const [ownerAddress, texts, multichainAddresses, expireAt] = await Promise.all([
          resolver
            ? getAddress(client, {
                name: normalized,
                registryAddress: config.registryAddress,
                resolver,
                coinTypes: config.addressCoinTypes,
              })
            : null,
          resolver ? getTextRecords(client, { resolver, keys: textKeys }) : [],
          resolver ? getMultichainAddresses(client, { resolver, coinTypes: config.multichainCoinTypes }) : [],
          config.baseRegistrarAddress
            ? getExpiry(client, {
                name: normalized,
                baseRegistrarAddress: config.baseRegistrarAddress,
                registrarName: config.registrarName,
              })
            : null,
        ]);
        // A wildcard resolver is asked about every name below it; one that knows nothing of this name
        // (no record at all) means the name does not exist, as for a name missing from the registry.
        if (registry === null && ownerAddress === null && texts.length === 0 && multichainAddresses.length === 0) {
          return null;
        }
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
