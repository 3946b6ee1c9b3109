import { type Address, type Client, zeroAddress } from 'viem';
import { readContract } from 'viem/actions';
import { namehash } from 'viem/ens';
import { registryAbi } from './abis.js';

export type GetRegistryRecordParameters = {
  /** Normalized full name. */
  name: string;
  registryAddress: Address;
};
export type GetRegistryRecordReturnType = {
  /** Registry owner of the node (the manager, not necessarily the address the name points to). */
  owner: Address | null;
  resolver: Address | null;
} | null;

/**
 * Reads owner and resolver of a node; null when the registry holds neither, i.e. the name does not
 * exist. A name with an owner but no resolver exists and simply has no records.
 *
 * @example
 * const record = await getRegistryRecord(client, { name: 'alice.eth', registryAddress })
 * // { owner: '0x…', resolver: '0x…' } or null
 */
export async function getRegistryRecord(
  client: Client,
  { name, registryAddress }: GetRegistryRecordParameters,
): Promise<GetRegistryRecordReturnType> {
  const node = namehash(name);
  const [owner, resolver] = await Promise.all([
    readContract(client, { address: registryAddress, abi: registryAbi, functionName: 'owner', args: [node] }),
    readContract(client, { address: registryAddress, abi: registryAbi, functionName: 'resolver', args: [node] }),
  ]);
  if (owner === zeroAddress && resolver === zeroAddress) return null;
  return { owner: owner === zeroAddress ? null : owner, resolver: resolver === zeroAddress ? null : resolver };
}
