import type { Address } from 'viem';
import { KNOWN_CHAINS } from '../../../../platform/chains/registry.js';
import type { NamingProvider } from '../types.js';
import { COIN_TYPE_ETHEREUM } from './coin-address.js';
import { createDisabledProvider, createEnsCompatibleProvider } from './compatible-provider.js';
import { ENS_INFO } from './info.js';

export { ENS_INFO };

/** The ENS registry on Ethereum mainnet (same address on its testnets). */
export const ENS_REGISTRY_ADDRESS: Address = '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e';
/** ENS `.eth` BaseRegistrarImplementation on Ethereum mainnet (ERC-721 of `.eth` 2LDs, holds expiries). */
export const ENS_BASE_REGISTRAR_ADDRESS: Address = '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85';
/** The ENS metadata service renders NFT avatars of mainnet names. */
const ENS_AVATAR_SERVICE = 'https://metadata.ens.domains/mainnet/avatar';

/** Coin types of every chain the service knows: the chains a name's multichain addresses can name. */
export const KNOWN_COIN_TYPES: readonly number[] = KNOWN_CHAINS.flatMap((c) =>
  c.coinType === undefined ? [] : [c.coinType],
);

export interface EnsProviderOptions {
  /** Ethereum JSON-RPC endpoint (`ENS_RPC_URL`). Without it the provider is disabled. */
  rpcUrl?: string | undefined;
  /** ENS registry (`ENS_REGISTRY_ADDRESS`); mainnet's by default. */
  registryAddress?: Address | undefined;
  /**
   * `.eth` base registrar (`ENS_BASE_REGISTRAR_ADDRESS`, `none` for null), for expiries. Defaults to mainnet's only
   * while the registry is mainnet's too: paired with another registry it would report expiries of a
   * different namespace. `null` turns expiries off.
   */
  baseRegistrarAddress?: Address | null | undefined;
  /** Per-RPC-request timeout in milliseconds (`PROVIDER_TIMEOUT_MS`). */
  timeoutMs?: number | undefined;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
  /** Allow CCIP-Read gateways on loopback/private networks; only tests with a loopback gateway need it. */
  ccipAllowPrivateHosts?: boolean | undefined;
}

/**
 * ENS on Ethereum, resolved client-side the way the UniversalResolver does it on chain: ENSIP-10
 * wildcard walk, extended `resolve`, EIP-3668 CCIP-Read for offchain names, ENSIP-15 normalization,
 * ENSIP-19 primary names (`addr.reverse` / `<coinType>.reverse`, then `default.reverse`, verified).
 *
 * @example
 * const ens = createEnsProvider({ rpcUrl: process.env.ENS_RPC_URL })
 * await ens.resolve('vitalik.eth') // '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
 */
export function createEnsProvider(options: EnsProviderOptions): NamingProvider {
  if (!options.rpcUrl) return createDisabledProvider(ENS_INFO, 'ENS_RPC_URL is not set');
  const isMainnetRegistry =
    options.registryAddress === undefined || sameAddress(options.registryAddress, ENS_REGISTRY_ADDRESS);
  return createEnsCompatibleProvider({
    info: ENS_INFO,
    rpcUrl: options.rpcUrl,
    registryAddress: options.registryAddress ?? ENS_REGISTRY_ADDRESS,
    baseRegistrarAddress:
      options.baseRegistrarAddress !== undefined
        ? options.baseRegistrarAddress
        : isMainnetRegistry
          ? ENS_BASE_REGISTRAR_ADDRESS
          : null,
    registrarName: 'eth',
    addressCoinTypes: [COIN_TYPE_ETHEREUM],
    multichainCoinTypes: KNOWN_COIN_TYPES,
    l2ReverseRegistrarAddress: null,
    avatarService: isMainnetRegistry ? ENS_AVATAR_SERVICE : null,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    ccipAllowPrivateHosts: options.ccipAllowPrivateHosts ?? false,
  });
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
