import type { Address, Client } from 'viem';
import { readContract } from 'viem/actions';
import { namehash } from 'viem/ens';
import { nameResolverAbi } from './abis.js';
import { orMissing } from './errors.js';
import { getResolver } from './get-resolver.js';

export type GetReverseNameParameters = {
  address: Address;
  registryAddress: Address;
  /**
   * Reverse namespace in the registry: `addr.reverse` for Ethereum, `<coinType hex>.reverse` for an
   * L2 per ENSIP-19 (Basenames writes `80002105.reverse` on Base).
   */
  reverseNamespace?: string;
};
/** The name the address claims, NOT verified: anyone can claim any name in their reverse record. */
export type GetReverseNameReturnType = string | null;

/**
 * Reads the `name` record of `<address>.<reverseNamespace>`. Use `getPrimaryName` for a name that is
 * safe to show; this action only returns the claim.
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
    readContract(client, {
      address: resolver,
      abi: nameResolverAbi,
      functionName: 'name',
      args: [namehash(reverseName)],
    }),
  );
  return name ? name : null;
}
