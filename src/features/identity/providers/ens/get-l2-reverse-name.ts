import type { Address, Client } from 'viem';
import { readContract } from 'viem/actions';
import { l2ReverseRegistrarAbi } from './abis.js';
import { orMissing } from './errors.js';

export type GetL2ReverseNameParameters = {
  address: Address;
  /** ENSIP-19 L2 reverse registrar of the chain (on Base `0x0000000000D8e504002cC26E3Ec46D81971C1664`). */
  reverseRegistrarAddress: Address;
};
/** The name the address claims, NOT verified. */
export type GetL2ReverseNameReturnType = string | null;

/**
 * Reads a primary-name claim from an ENSIP-19 L2 reverse registrar, which keeps names in its own
 * storage (`nameForAddr`) instead of under a reverse node of the registry.
 *
 * @example
 * const claimed = await getL2ReverseName(client, { address, reverseRegistrarAddress })
 * // 'alice.base.eth' or null
 */
export async function getL2ReverseName(
  client: Client,
  { address, reverseRegistrarAddress }: GetL2ReverseNameParameters,
): Promise<GetL2ReverseNameReturnType> {
  const name = await orMissing(
    readContract(client, {
      address: reverseRegistrarAddress,
      abi: l2ReverseRegistrarAbi,
      functionName: 'nameForAddr',
      args: [address],
    }),
  );
  return name ? name : null;
}
