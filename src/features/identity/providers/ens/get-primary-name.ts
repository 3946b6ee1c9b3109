import type { Address, Client } from 'viem';
import { COIN_TYPE_ETHEREUM } from './coin-address.js';
import { getAddress } from './get-address.js';
import { getL2ReverseName } from './get-l2-reverse-name.js';
import { getReverseName } from './get-reverse-name.js';
import { normalizeName } from './normalize.js';
import { COIN_TYPE_DEFAULT_EVM, isEvmCoinType, reverseNamespace } from './reverse-namespace.js';

export type GetPrimaryNameParameters = {
  address: Address;
  registryAddress: Address;
  /** Coin type of the chain the primary name is for (ENSIP-9/11); 60 (Ethereum) by default. */
  coinType?: number;
  /**
   * Registry reverse namespaces to read, in order; the first one holding a claim is used. By default
   * ENSIP-19's: the coin type's own namespace, then `default.reverse` for EVM chains.
   */
  reverseNamespaces?: readonly string[];
  /** ENSIP-19 L2 reverse registrar, read before the registry namespaces when set. */
  l2ReverseRegistrarAddress?: Address | null;
  /** Coin types the forward check resolves, in order (see `getAddress`); `[coinType]` by default. */
  coinTypes?: readonly number[];
};
/** The normalized primary name, or null when there is no claim or the claim does not verify. */
export type GetPrimaryNameReturnType = string | null;

/**
 * Primary name of an address as ENSIP-19 defines it (https://docs.ens.domains/ensip/19): the `name`
 * of `<address>.<coinType namespace>`, falling back to `<address>.default.reverse` for EVM chains, and
 * then, as ENS requires, the claimed name is normalized and resolved forward for the same coin type:
 * it counts only if it points back to the address. The first source holding a claim decides: a claim
 * that fails verification is not replaced by one further down the list (ENSIP-19 falls back only when
 * a record is unset), which is also what viem's `getEnsName` gets from the UniversalResolver.
 *
 * @example
 * const name = await getPrimaryName(client, { address: '0xd8dA…6045', registryAddress })
 * // 'vitalik.eth' or null
 */
export async function getPrimaryName(
  client: Client,
  {
    address,
    registryAddress,
    coinType = COIN_TYPE_ETHEREUM,
    reverseNamespaces = defaultReverseNamespaces(coinType),
    l2ReverseRegistrarAddress,
    coinTypes = [coinType],
  }: GetPrimaryNameParameters,
): Promise<GetPrimaryNameReturnType> {
  let claimed: string | null = null;
  if (l2ReverseRegistrarAddress) {
    claimed = await getL2ReverseName(client, { address, reverseRegistrarAddress: l2ReverseRegistrarAddress });
  }
  for (const namespace of reverseNamespaces) {
    if (claimed !== null) break;
    claimed = await getReverseName(client, { address, registryAddress, reverseNamespace: namespace });
  }
  if (claimed === null) return null;

  let name: string;
  try {
    name = normalizeName(claimed);
  } catch {
    return null; // a claim that is not a valid name can never verify
  }
  const forward = await getAddress(client, { name, registryAddress, coinTypes });
  return forward !== null && forward.toLowerCase() === address.toLowerCase() ? name : null;
}

/** ENSIP-19's order: the chain's own namespace, then the EVM-wide default. */
export function defaultReverseNamespaces(coinType: number): string[] {
  const own = reverseNamespace(coinType);
  return isEvmCoinType(coinType) && coinType !== COIN_TYPE_DEFAULT_EVM ? [own, 'default.reverse'] : [own];
}
