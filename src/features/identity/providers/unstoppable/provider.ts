import { type Address, type Client, hexToBigInt, isAddress, zeroAddress } from 'viem';
import { readContract } from 'viem/actions';
import { namehash } from 'viem/ens';
import { enabled } from '../../../../platform/upstream/status.js';
import { createUnconfiguredProvider } from '../disabled.js';
import { avatarUrl } from '../ens/avatar.js';
import { isEvmCoinType } from '../ens/reverse-namespace.js';
import { createEvmRpcClient, evmUpstream } from '../evm-rpc.js';
import type { LookupOptions, NameRecord, NamingProvider, ReverseOptions } from '../types.js';
import { UNS_ETHEREUM_CAIP2, UNS_POLYGON_CAIP2, UNSTOPPABLE_INFO } from './info.js';
import { normalizeUnsName } from './normalize.js';
import { proxyReaderAbi } from './proxy-reader-abi.js';
import {
  evmRecord,
  multichainAddresses,
  textRecords,
  UNS_AVATAR_KEY,
  UNS_ETH_ADDRESS_KEY,
  UNS_POLYGON_ADDRESS_KEY,
  UNS_RECORD_KEYS,
} from './record-keys.js';

export { UNSTOPPABLE_INFO };

/** ProxyReader on Ethereum mainnet (`@unstoppabledomains/uns` 1.0.17 `uns-config.json`, network 1). */
export const UNS_ETH_PROXY_READER_ADDRESS: Address = '0x578853aa776Eef10CeE6c4dd2B5862bdcE767A8B';
/** ProxyReader on Polygon PoS (`uns-config.json`, network 137). */
export const UNS_POLYGON_PROXY_READER_ADDRESS: Address = '0x91EDd8708062bd4233f4Dd0FCE15A7cb4d500091';

export interface UnstoppableProviderOptions {
  /** Ethereum JSON-RPC endpoint (`UNS_ETH_RPC_URL`). */
  ethRpcUrl?: string | undefined;
  /** Polygon JSON-RPC endpoint (`UNS_POLYGON_RPC_URL`). Without either URL the provider is disabled. */
  polygonRpcUrl?: string | undefined;
  /** ProxyReader on Ethereum (`UNS_ETH_PROXY_READER_ADDRESS`); mainnet's by default. */
  ethProxyReaderAddress?: Address | undefined;
  /** ProxyReader on Polygon (`UNS_POLYGON_PROXY_READER_ADDRESS`); mainnet's by default. */
  polygonProxyReaderAddress?: Address | undefined;
  /** Per-RPC-request timeout in milliseconds (`PROVIDER_TIMEOUT_MS`). */
  timeoutMs?: number | undefined;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
}

interface UnsChain {
  caip2Id: string;
  client: Client;
  proxyReader: Address;
  /** The EVM address record of this chain, read before `crypto.ETH.address`. */
  addressKey: string;
}

interface UnsData {
  chain: UnsChain;
  owner: string;
  values: Map<string, string>;
}

/**
 * Unstoppable Domains (`.crypto`, `.x`, `.nft`, …): the UNS registries on Polygon and Ethereum, read
 * through each chain's ProxyReader (`getData`, `reverseNameOf`), the way `@unstoppabledomains/resolution`
 * does: both chains are asked and Polygon (L2) wins, because a name bridged to Polygon keeps a stale
 * token on Ethereum. A token id is the name's ENS-style namehash.
 *
 * A name's address is its chain's EVM record (`crypto.MATIC.version.MATIC.address` on Polygon), then
 * `crypto.ETH.address`, then the token owner: a UNS name always has an owner, who is where UD's own
 * apps send when no address record is set.
 *
 * @example
 * const ud = createUnstoppableProvider({ polygonRpcUrl: process.env.UNS_POLYGON_RPC_URL })
 * await ud.records('brad.crypto') // { ownerAddress: '0x8aaD…', multichainAddresses: [...], … }
 */
export function createUnstoppableProvider(options: UnstoppableProviderOptions): NamingProvider {
  const info = UNSTOPPABLE_INFO;
  if (!options.ethRpcUrl && !options.polygonRpcUrl) {
    return createUnconfiguredProvider(info, 'UNS_POLYGON_RPC_URL or UNS_ETH_RPC_URL is not set');
  }
  const client = (rpcUrl: string) =>
    createEvmRpcClient({ rpcUrl, timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes });
  // Polygon first: the order in which an answer is preferred.
  const chains: UnsChain[] = [];
  if (options.polygonRpcUrl) {
    chains.push({
      caip2Id: UNS_POLYGON_CAIP2,
      client: client(options.polygonRpcUrl),
      proxyReader: options.polygonProxyReaderAddress ?? UNS_POLYGON_PROXY_READER_ADDRESS,
      addressKey: UNS_POLYGON_ADDRESS_KEY,
    });
  }
  if (options.ethRpcUrl) {
    chains.push({
      caip2Id: UNS_ETHEREUM_CAIP2,
      client: client(options.ethRpcUrl),
      proxyReader: options.ethProxyReaderAddress ?? UNS_ETH_PROXY_READER_ADDRESS,
      addressKey: UNS_ETH_ADDRESS_KEY,
    });
  }

  async function getData(chain: UnsChain, name: string, keys: readonly string[]): Promise<UnsData | null> {
    // ProxyReader answers a token that does not exist (or has expired) with a zero owner, not a revert.
    const [, owner, values] = await readContract(chain.client, {
      address: chain.proxyReader,
      abi: proxyReaderAbi,
      functionName: 'getData',
      args: [keys, hexToBigInt(namehash(name))],
    });
    if (owner === zeroAddress) return null;
    return { chain, owner, values: new Map(keys.map((key, i) => [key, values[i] ?? ''])) };
  }

  /**
   * The first chain, in preference order, holding the name. Every chain is asked at once; a failed chain
   * fails the lookup unless a chain before it already holds the name, since its answer would have won.
   */
  async function lookup(name: string, keys: readonly string[]): Promise<UnsData | null> {
    const answers = await Promise.allSettled(chains.map((chain) => getData(chain, name, keys)));
    for (const answer of answers) {
      if (answer.status === 'rejected') throw answer.reason;
      if (answer.value) return answer.value;
    }
    return null;
  }

  function tryNormalize(name: string): string | null {
    try {
      return normalizeUnsName(name);
    } catch {
      return null;
    }
  }

  function toRecord(name: string, { chain, owner, values }: UnsData): NameRecord {
    const picture = values.get(UNS_AVATAR_KEY);
    return {
      name,
      ownerAddress: evmRecord(values, chain.addressKey) ?? evmRecord(values, UNS_ETH_ADDRESS_KEY) ?? owner,
      caip2Id: chain.caip2Id,
      // UD pictures are URLs or NFT references (`1/erc721:0x…/1`); only the former can be shown as is.
      avatar: picture ? avatarUrl(picture, { name, avatarService: null }) : null,
      // ProxyReader exposes no expiry (an expired token reads as absent); registration time is in event logs.
      expireAt: null,
      registeredAt: null,
      multichainAddresses: multichainAddresses(values),
      txtRecords: textRecords(values),
    };
  }

  const provider: NamingProvider = {
    info,
    status: enabled,
    normalize: normalizeUnsName,

    async resolve(name: string, lookupOptions?: LookupOptions): Promise<string | null> {
      return (await provider.records(name, lookupOptions))?.ownerAddress ?? null;
    },

    async reverse(address: string, reverseOptions?: ReverseOptions): Promise<string | null> {
      if (!isAddress(address, { strict: false })) return null;
      const coinType = reverseOptions?.coinType;
      // A UNS reverse record is the token owner's, whichever EVM chain the caller asks about.
      if (coinType !== undefined && !isEvmCoinType(coinType)) return null;
      return evmUpstream(info.provider, 'reverse', reverseOptions?.signal, async () => {
        const claims = await Promise.allSettled(
          chains.map((chain) =>
            readContract(chain.client, {
              address: chain.proxyReader,
              abi: proxyReaderAbi,
              functionName: 'reverseNameOf',
              args: [address as Address],
            }),
          ),
        );
        for (const claim of claims) {
          if (claim.status === 'rejected') throw claim.reason;
          const name = claim.value ? tryNormalize(claim.value) : null;
          if (!name) continue;
          // UNSRegistry clears a reverse record when the token moves; reading the owner where the name
          // resolves (Polygon first) also rejects the stale Ethereum token of a name bridged to Polygon.
          const data = await lookup(name, []);
          return data && data.owner.toLowerCase() === address.toLowerCase() ? name : null;
        }
        return null;
      });
    },

    async records(name: string, lookupOptions?: LookupOptions): Promise<NameRecord | null> {
      const normalized = tryNormalize(name);
      if (normalized === null) return null;
      return evmUpstream(info.provider, 'records', lookupOptions?.signal, async () => {
        const data = await lookup(normalized, UNS_RECORD_KEYS);
        return data ? toRecord(normalized, data) : null;
      });
    },

    // A chain holds no index of names by prefix.
    async candidates(): Promise<string[]> {
      return [];
    },
  };
  return provider;
}
