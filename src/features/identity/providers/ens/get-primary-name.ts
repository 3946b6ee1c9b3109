import type { Address, Client } from 'viem';
import { getAddress } from './get-address.js';
import { getL2ReverseName } from './get-l2-reverse-name.js';
import { getReverseName } from './get-reverse-name.js';
import { normalizeName } from './normalize.js';

export type GetPrimaryNameParameters = {
  address: Address;
  registryAddress: Address;
  /** Registry reverse namespaces to read, in order; the first one holding a claim is used. */
  reverseNamespaces?: readonly string[];
  /** ENSIP-19 L2 reverse registrar, read before the registry namespaces when set. */
  l2ReverseRegistrarAddress?: Address | null;
  /** Coin types the forward check resolves, in order (see `getAddress`). */
  coinTypes?: readonly number[];
};
/** The normalised primary name, or null when there is no claim or the claim does not verify. */
export type GetPrimaryNameReturnType = string | null;

/**
 * Primary name of an address. A reverse record is only a claim, so, as ENS requires, the claimed
 * name is normalised and resolved forward, and it counts only if it points back to the address.
 * The first source holding a claim decides: a claim that fails verification is not replaced by an
 * older one further down the list (ENSIP-19 falls back only when a record is unset).
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
    reverseNamespaces = ['addr.reverse'],
    l2ReverseRegistrarAddress,
    coinTypes,
  }: GetPrimaryNameParameters,
): Promise<GetPrimaryNameReturnType> {
  let claimed: string | null = null;
  if (l2ReverseRegistrarAddress) {
    claimed = await getL2ReverseName(client, { address, reverseRegistrarAddress: l2ReverseRegistrarAddress });
  }
  for (const reverseNamespace of reverseNamespaces) {
    if (claimed !== null) break;
    claimed = await getReverseName(client, { address, registryAddress, reverseNamespace });
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
