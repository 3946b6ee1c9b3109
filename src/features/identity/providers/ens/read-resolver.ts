import { type Abi, type Client, decodeFunctionResult, encodeFunctionData, type Hex, toHex } from 'viem';
import { readContract } from 'viem/actions';
import { packetToBytes } from 'viem/ens';
import { extendedResolverAbi } from './abis.js';
import type { EnsResolver } from './get-resolver.js';

export type ReadResolverParameters = {
  resolver: EnsResolver;
  /** ABI holding the record function, e.g. `textResolverAbi`. */
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
};

/**
 * Reads one record from a name's resolver, the way ENSIP-10 requires: an extended resolver is asked
 * through `resolve(dnsEncode(name), encodedCall)` (viem's `packetToBytes` is the DNS wire encoding the
 * UniversalResolver uses too), any other resolver directly. A resolver that answers with EIP-3668
 * `OffchainLookup` is followed to its gateway and back by viem's CCIP-Read in `call`
 * (viem `utils/ccip.ts`: sender check, callback, transport timeout, 10 MiB cap), so offchain and L2
 * names resolve like onchain ones. Errors are left to the caller (`orMissing`).
 *
 * @example
 * const value = await readResolver(client, { resolver, abi: textResolverAbi, functionName: 'text', args: [node, 'url'] })
 */
export async function readResolver(
  client: Client,
  { resolver, abi, functionName, args }: ReadResolverParameters,
): Promise<unknown> {
  if (!resolver.extended) {
    return readContract(client, { address: resolver.address, abi, functionName, args });
  }
  const data = encodeFunctionData({ abi, functionName, args });
  const answer: Hex = await readContract(client, {
    address: resolver.address,
    abi: extendedResolverAbi,
    functionName: 'resolve',
    args: [toHex(packetToBytes(resolver.name)), data],
  });
  // `args` picks the overload (`addr(bytes32)` vs `addr(bytes32,uint256)` decode differently).
  return decodeFunctionResult({ abi, functionName, args, data: answer } as Parameters<typeof decodeFunctionResult>[0]);
}
