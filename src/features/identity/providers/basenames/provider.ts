import type { Address } from 'viem';
import { evmCoinType } from '../../../../platform/chains/registry.js';
import { COIN_TYPE_ETHEREUM } from '../ens/coin-address.js';
import { createDisabledProvider, createEnsCompatibleProvider } from '../ens/compatible-provider.js';
import { KNOWN_COIN_TYPES, sameAddress } from '../ens/provider.js';
import type { NamingProvider } from '../types.js';
import { BASE_CHAIN_ID, BASENAMES_INFO } from './info.js';

export { BASENAMES_INFO };

/** ENSIP-11 coin type of Base (0x80002105). */
export const BASE_COIN_TYPE = evmCoinType(BASE_CHAIN_ID);

/** The Basenames registry on Base mainnet. */
export const BASENAMES_REGISTRY_ADDRESS: Address = '0xB94704422c2a1E396835A571837Aa5AE53285a95';
/** Basenames `BaseRegistrar` on Base mainnet: ERC-721 of `*.base.eth`, holds expiries. */
export const BASENAMES_BASE_REGISTRAR_ADDRESS: Address = '0x03c4738Ee98aE44591e1A4A4F3CaB6641d95DD9a';
/** ENSIP-19 L2 reverse registrar on Base, where primary names are now written. */
export const BASE_L2_REVERSE_REGISTRAR_ADDRESS: Address = '0x0000000000D8e504002cC26E3Ec46D81971C1664';
/**
 * Reverse namespace of Base in the registry (ENSIP-19 `<coinType hex>.reverse`), where the Basenames
 * ReverseRegistrar has written primary names since launch.
 */
export const BASE_REVERSE_NAMESPACE = `${BASE_COIN_TYPE.toString(16)}.reverse`;

export interface BasenamesProviderOptions {
  /** Base JSON-RPC endpoint (`BASE_RPC_URL`). Without it the provider is disabled. */
  rpcUrl?: string | undefined;
  /** Basenames registry on Base (`BASENAMES_REGISTRY_ADDRESS`); Base mainnet's by default. */
  registryAddress?: Address | undefined;
  /**
   * `.base.eth` base registrar (`BASENAMES_BASE_REGISTRAR_ADDRESS`). Like the L2 reverse registrar
   * below, it defaults to the mainnet contract only while the registry is mainnet's; `null` disables.
   */
  baseRegistrarAddress?: Address | null | undefined;
  /** ENSIP-19 L2 reverse registrar (`BASE_L2_REVERSE_REGISTRAR_ADDRESS`); `null` disables. */
  l2ReverseRegistrarAddress?: Address | null | undefined;
  /** Registry reverse namespaces read after the L2 reverse registrar; `[80002105.reverse]` by default. */
  reverseNamespaces?: readonly string[] | undefined;
  /** Per-RPC-request timeout in milliseconds (`PROVIDER_TIMEOUT_MS`). */
  timeoutMs?: number | undefined;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
  /** Allow CCIP-Read gateways on loopback/private networks; only tests with a loopback gateway need it. */
  ccipAllowPrivateHosts?: boolean | undefined;
}

/**
 * Basenames (`*.base.eth`): ENS contracts deployed on Base (registry + L2Resolver), read with the ENS
 * actions, so wildcard and CCIP-Read resolvers work there too. Primary names follow ENSIP-19 on Base:
 * the L2 reverse registrar first, then the registry's `80002105.reverse`; `default.reverse` lives on
 * Ethereum, where the ENS provider reads it.
 * A name's own address is its Base record (coin type 0x80002105), falling back to the Ethereum record
 * (60) that the Basenames registration flow also writes.
 *
 * @example
 * const basenames = createBasenamesProvider({ rpcUrl: process.env.BASE_RPC_URL })
 * await basenames.reverse('0x…') // 'alice.base.eth' or null
 */
export function createBasenamesProvider(options: BasenamesProviderOptions): NamingProvider {
  if (!options.rpcUrl) return createDisabledProvider(BASENAMES_INFO, 'BASE_RPC_URL is not set');
  const isMainnetRegistry =
    options.registryAddress === undefined || sameAddress(options.registryAddress, BASENAMES_REGISTRY_ADDRESS);
  const mainnetDefault = (given: Address | null | undefined, mainnet: Address): Address | null =>
    given !== undefined ? given : isMainnetRegistry ? mainnet : null;
  return createEnsCompatibleProvider({
    info: BASENAMES_INFO,
    rpcUrl: options.rpcUrl,
    registryAddress: options.registryAddress ?? BASENAMES_REGISTRY_ADDRESS,
    baseRegistrarAddress: mainnetDefault(options.baseRegistrarAddress, BASENAMES_BASE_REGISTRAR_ADDRESS),
    registrarName: 'base.eth',
    addressCoinTypes: [BASE_COIN_TYPE, COIN_TYPE_ETHEREUM],
    multichainCoinTypes: KNOWN_COIN_TYPES,
    reverseNamespaces: options.reverseNamespaces ?? [BASE_REVERSE_NAMESPACE],
    l2ReverseRegistrarAddress: mainnetDefault(options.l2ReverseRegistrarAddress, BASE_L2_REVERSE_REGISTRAR_ADDRESS),
    // No public service renders NFT avatars of Basenames; such avatars are left without a URL.
    avatarService: null,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    ccipAllowPrivateHosts: options.ccipAllowPrivateHosts ?? false,
  });
}
