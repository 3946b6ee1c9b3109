import type { Address } from 'viem';
import { evmCoinType } from '../../../../platform/chains/registry.js';
import { enabled } from '../../../../platform/upstream/status.js';
import { createUnconfiguredProvider } from '../disabled.js';
import { COIN_TYPE_ETHEREUM } from '../ens/coin-address.js';
import { createEnsCompatibleProvider } from '../ens/compatible-provider.js';
import { normalizeName } from '../ens/normalize.js';
import { KNOWN_COIN_TYPES, sameAddress } from '../ens/provider.js';
import type { LookupOptions, NameRecord, NamingProvider, ReverseOptions } from '../types.js';
import { ARBITRUM_CHAIN_ID, BSC_CHAIN_ID, SPACEID_INFO } from './info.js';

export { SPACEID_INFO };

/** SPACE ID registry on BNB Chain (ENS registry ABI; provider-notes §4, from several third-party configs). */
export const SPACEID_BSC_REGISTRY_ADDRESS: Address = '0x08CEd32a7f3eeC915Ba84415e9C07a7286977956';
/** SPACE ID registry on Arbitrum One. */
export const SPACEID_ARB_REGISTRY_ADDRESS: Address = '0x4a067EE58e73ac5E4a43722E008DFdf65B2bF348';
/** `.bnb` base registrar (expiries), as `@web3-name-sdk/core` 0.4.1 lists it. */
export const SPACEID_BSC_BASE_REGISTRAR_ADDRESS: Address = '0xE3b1D32e43Ce8d658368e2CBFF95D57Ef39Be8a6';
/** `.arb` base registrar, as `@web3-name-sdk/core` 0.4.1 lists it. */
export const SPACEID_ARB_BASE_REGISTRAR_ADDRESS: Address = '0x5d482d501b369f5ba034dec5c5fb7a50d2d6ca20';

export interface SpaceIdTldOptions {
  /** JSON-RPC endpoint of the TLD's chain; the TLD is off without it. */
  rpcUrl?: string | undefined;
  /** The chain's SPACE ID registry; mainnet's by default. */
  registryAddress?: Address | undefined;
  /** Base registrar holding expiries; mainnet's only while the registry is mainnet's, `null` turns it off. */
  baseRegistrarAddress?: Address | null | undefined;
}

export interface SpaceIdProviderOptions {
  /** `.bnb` on BNB Chain (`SPACEID_BSC_RPC_URL`, `SPACEID_BSC_REGISTRY_ADDRESS`). */
  bnb?: SpaceIdTldOptions;
  /** `.arb` on Arbitrum One (`SPACEID_ARB_RPC_URL`, `SPACEID_ARB_REGISTRY_ADDRESS`). */
  arb?: SpaceIdTldOptions;
  /** Per-RPC-request timeout in milliseconds (`PROVIDER_TIMEOUT_MS`). */
  timeoutMs?: number | undefined;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
}

interface Tld {
  tld: 'bnb' | 'arb';
  setting: string;
  chainId: number;
  mainnetRegistry: Address;
  mainnetBaseRegistrar: Address;
}

const TLDS: readonly Tld[] = [
  {
    tld: 'bnb',
    setting: 'SPACEID_BSC_RPC_URL',
    chainId: BSC_CHAIN_ID,
    mainnetRegistry: SPACEID_BSC_REGISTRY_ADDRESS,
    mainnetBaseRegistrar: SPACEID_BSC_BASE_REGISTRAR_ADDRESS,
  },
  {
    tld: 'arb',
    setting: 'SPACEID_ARB_RPC_URL',
    chainId: ARBITRUM_CHAIN_ID,
    mainnetRegistry: SPACEID_ARB_REGISTRY_ADDRESS,
    mainnetBaseRegistrar: SPACEID_ARB_BASE_REGISTRAR_ADDRESS,
  },
];

const tldOf = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/**
 * SPACE ID (`.bnb` on BNB Chain, `.arb` on Arbitrum One): ENS registries and public resolvers deployed
 * by SPACE ID, read with the ENS provider code, one ENS-compatible reader per TLD on its own chain.
 * These are SPACE ID's "v2" TLDs: the node is plain ENSIP-15 `namehash(name)`, the address is the
 * resolver's `addr(node)`, and a primary name is `<addr>.addr.reverse` on the same chain, verified
 * forward — what `@web3-name-sdk/core` does, without its Ethereum-mainnet TLD hub.
 * A TLD whose chain has no RPC URL is off; the provider is disabled when both are.
 *
 * @example
 * const sid = createSpaceIdProvider({ bnb: { rpcUrl: process.env.SPACEID_BSC_RPC_URL } })
 * await sid.resolve('spaceid.bnb') // '0x…' or null
 */
export function createSpaceIdProvider(options: SpaceIdProviderOptions): NamingProvider {
  const info = SPACEID_INFO;
  const readers = new Map<string, NamingProvider>();
  const off: string[] = [];
  for (const tld of TLDS) {
    const given = options[tld.tld];
    if (!given?.rpcUrl) {
      off.push(tld.setting);
      continue;
    }
    const isMainnetRegistry =
      given.registryAddress === undefined || sameAddress(given.registryAddress, tld.mainnetRegistry);
    readers.set(
      tld.tld,
      createEnsCompatibleProvider({
        // Same provider, but a record names the TLD's own chain.
        info: { ...info, caip2Id: `eip155:${tld.chainId}`, suffixes: [`.${tld.tld}`] },
        rpcUrl: given.rpcUrl,
        registryAddress: given.registryAddress ?? tld.mainnetRegistry,
        baseRegistrarAddress:
          given.baseRegistrarAddress !== undefined
            ? given.baseRegistrarAddress
            : isMainnetRegistry
              ? tld.mainnetBaseRegistrar
              : null,
        registrarName: tld.tld,
        // SPACE ID's `getAddress` reads `addr(node)` (coin type 60) unless asked for another coin type.
        addressCoinTypes: [COIN_TYPE_ETHEREUM],
        multichainCoinTypes: KNOWN_COIN_TYPES,
        reverseNamespaces: ['addr.reverse'],
        l2ReverseRegistrarAddress: null,
        avatarService: null,
        timeoutMs: options.timeoutMs,
        maxBodyBytes: options.maxBodyBytes,
      }),
    );
  }
  if (readers.size === 0) return createUnconfiguredProvider(info, `${off.join(' or ')} is not set`);

  /** ENSIP-15, then the TLD must be one this server reads. */
  function normalize(name: string): string {
    const normalized = normalizeName(name);
    const tld = TLDS.find((t) => t.tld === tldOf(normalized));
    if (!tld || normalized === tld.tld) throw new Error(`"${name}" is not a .bnb or .arb name`);
    if (!readers.has(tld.tld)) throw new Error(`.${tld.tld} names are not enabled on this server`);
    return normalized;
  }

  /** The reader of a name's TLD, or null for a name that cannot be a SPACE ID name read here. */
  function readerOf(name: string): NamingProvider | null {
    try {
      return readers.get(tldOf(normalize(name))) ?? null;
    } catch {
      return null;
    }
  }

  /** The readers asked for an address's primary name: the one chain asked about, or every chain. */
  function reverseReaders(coinType: number | undefined): NamingProvider[] {
    if (coinType === undefined) return [...readers.values()];
    const tld = TLDS.find((t) => evmCoinType(t.chainId) === coinType);
    const reader = tld ? readers.get(tld.tld) : undefined;
    return reader ? [reader] : [];
  }

  return {
    info,
    status: enabled,
    normalize,

    async resolve(name: string, lookupOptions?: LookupOptions): Promise<string | null> {
      return (await readerOf(name)?.resolve(name, lookupOptions)) ?? null;
    },

    async reverse(address: string, reverseOptions?: ReverseOptions): Promise<string | null> {
      const asked = reverseReaders(reverseOptions?.coinType);
      const signal = reverseOptions?.signal;
      // Each reader reads its own chain's `addr.reverse`, all at once; `.bnb` wins when both chains hold
      // a name, so a failing Arbitrum cannot hide a `.bnb` answer, while a failing BNB Chain leaves none.
      const answers = await Promise.allSettled(
        asked.map((reader) => reader.reverse(address, signal ? { signal } : {})),
      );
      for (const answer of answers) {
        if (answer.status === 'rejected') throw answer.reason;
        if (answer.value !== null) return answer.value;
      }
      return null;
    },

    async records(name: string, lookupOptions?: LookupOptions): Promise<NameRecord | null> {
      return (await readerOf(name)?.records(name, lookupOptions)) ?? null;
    },

    async candidates(): Promise<string[]> {
      return [];
    },
  };
}
