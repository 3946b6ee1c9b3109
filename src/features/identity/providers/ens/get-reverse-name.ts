import type { Address, Client } from 'viem';
import { namehash } from 'viem/ens';
import { nameResolverAbi } from './abis.js';
import { orMissing } from './errors.js';
import { getResolver } from './get-resolver.js';
import { readResolver } from './read-resolver.js';

export type GetReverseNameParameters = {
  address: Address;
  registryAddress: Address;
  /**
   * Reverse namespace in the registry: `addr.reverse` for Ethereum, `<coinType hex>.reverse` for an
   * L2 and `default.reverse` for the EVM-wide default, per ENSIP-19 (see `reverseNamespace`).
   */
  reverseNamespace?: string;
};
/** The name the address claims, NOT verified: anyone can claim any name in their reverse record. */
export type GetReverseNameReturnType = string | null;

/**
 * Reads the `name` record of `<address>.<reverseNamespace>`, resolved like any name (ENSIP-10 walk,
 * CCIP-Read): `default.reverse` and the L2 namespaces on Ethereum are wildcard resolvers holding no
 * registry node per address. Use `getPrimaryName` for a name that is safe to show; this action only
 * returns the claim.
 *
 * @example
 * const claimed = await getReverseName(client, { address: '0xd8dA…6045', registryAddress })
 * // 'vitalik.eth' or null
 */
export async function getReverseName(
  client: Client,
  { address, registryAddress, reverseNamespace = 'addr.reverse' }: GetReverseNameParameters,
): Promise<GetReverseNameReturnType> {
  const reverseName = `${address.slice(2).toLowerCase()}.${reverseNamespace}`;
  const resolver = await getResolver(client, { name: reverseName, registryAddress });
  if (resolver === null) return null;
  const name = await orMissing(
    readResolver(client, { resolver, abi: nameResolverAbi, functionName: 'name', args: [namehash(reverseName)] }),
  );
  return typeof name === 'string' && name ? name : null;
}
