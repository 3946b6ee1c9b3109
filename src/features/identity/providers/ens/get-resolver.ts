import { type Address, type Client, zeroAddress } from 'viem';
import { readContract } from 'viem/actions';
import { namehash } from 'viem/ens';
import { EXTENDED_RESOLVER_INTERFACE_ID, erc165Abi, registryAbi } from './abis.js';
import { orMissing } from './errors.js';

export type GetResolverParameters = {
  /** Normalized full name. */
  name: string;
  /** ENS-compatible registry (ENS on Ethereum, the Basenames registry on Base, a local deployment). */
  registryAddress: Address;
};

/** The resolver that answers for a name, and how it must be asked (see `readResolver`). */
export type EnsResolver = {
  /** The name being resolved (not the ancestor the resolver was found at). */
  name: string;
  address: Address;
  /** Supports ENSIP-10 `resolve(bytes,bytes)`: every record is read through it. */
  extended: boolean;
  /** Found at the name itself rather than at an ancestor (a wildcard match). */
  exact: boolean;
};
export type GetResolverReturnType = EnsResolver | null;

/**
 * Finds a name's resolver as ENSIP-10 says (https://docs.ens.domains/ensip/10): the registry's
 * resolver of the name, else of its parent, and so on up to the TLD. A resolver found at an ancestor
 * answers only if it is an extended resolver; a plain one there knows nothing of the name, which then
 * has no resolver. This is the same walk the UniversalResolver's `findResolver` does on chain; here it
 * runs client-side so it works on any chain with an ENS-style registry, a local node included. All
 * levels are read at once, so a batching transport sends them in one round trip.
 *
 * @example
 * const resolver = await getResolver(client, { name: 'jesse.cb.id', registryAddress: ENS_REGISTRY_ADDRESS })
 * // { name: 'jesse.cb.id', address: '0x…', extended: true, exact: false } or null
 */
export async function getResolver(
  client: Client,
  { name, registryAddress }: GetResolverParameters,
): Promise<GetResolverReturnType> {
  const labels = name.split('.');
  const ancestors = labels.map((_, i) => labels.slice(i).join('.'));
  const found = await Promise.all(
    ancestors.map((ancestor) =>
      readContract(client, {
        address: registryAddress,
        abi: registryAbi,
        functionName: 'resolver',
        args: [namehash(ancestor)],
      }),
    ),
  );
  const index = found.findIndex((address) => address !== zeroAddress);
  if (index === -1) return null;
  const address = found[index] as Address;
  const extended = await supportsExtendedResolver(client, address);
  if (index > 0 && !extended) return null;
  return { name, address, extended, exact: index === 0 };
}

/** ERC-165 check; a resolver that reverts, has no code or answers garbage does not support it. */
async function supportsExtendedResolver(client: Client, address: Address): Promise<boolean> {
  const supported = await orMissing(
    readContract(client, {
      address,
      abi: erc165Abi,
      functionName: 'supportsInterface',
      args: [EXTENDED_RESOLVER_INTERFACE_ID],
    }),
  );
  return supported === true;
}
