import { type Address, type Client, zeroAddress } from 'viem';
import { readContract } from 'viem/actions';
import { namehash } from 'viem/ens';
import { registryAbi } from './abis.js';

export type GetResolverParameters = {
  /** Normalised full name. */
  name: string;
  /** ENS-compatible registry (ENS on Ethereum, the Basenames registry on Base, a local deployment). */
  registryAddress: Address;
};
export type GetResolverReturnType = Address | null;

/**
 * Reads the resolver of the exact node from the registry. The UniversalResolver and the ENSIP-10
 * wildcard walk to the parent are skipped on purpose: a plain registry read works on any chain that
 * has an ENS-style registry, including a local node.
 *
 * @example
 * const resolver = await getResolver(client, { name: 'vitalik.eth', registryAddress: ENS_REGISTRY_ADDRESS })
 * // '0x231b0Ee14048e9dCcD1d247744d114a4EB5E8E63' or null when no resolver is set
 */
export async function getResolver(
  client: Client,
  { name, registryAddress }: GetResolverParameters,
): Promise<GetResolverReturnType> {
  const resolver = await readContract(client, {
    address: registryAddress,
    abi: registryAbi,
    functionName: 'resolver',
    args: [namehash(name)],
  });
  return resolver === zeroAddress ? null : resolver;
}
