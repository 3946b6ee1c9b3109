import type { Address, Client } from 'viem';
import { readContract } from 'viem/actions';
import { namehash } from 'viem/ens';
import { textResolverAbi } from './abis.js';
import { orMissing } from './errors.js';

export type GetTextRecordsParameters = {
  /** Normalised full name. */
  name: string;
  resolverAddress: Address;
  /** ENSIP-5 keys to read; a resolver cannot list the keys it holds, so the caller names them. */
  keys: readonly string[];
};
/** The records that are set, in the order of `keys`. */
export type GetTextRecordsReturnType = { key: string; value: string }[];

/**
 * Reads several text records at once. The calls are issued together so a batching transport sends
 * them in one JSON-RPC batch; this works on chains without a Multicall3 deployment.
 *
 * @example
 * const records = await getTextRecords(client, { name: 'alice.eth', resolverAddress, keys: ['url', 'com.github'] })
 * // [{ key: 'url', value: 'https://alice.example' }]
 */
export async function getTextRecords(
  client: Client,
  { name, resolverAddress, keys }: GetTextRecordsParameters,
): Promise<GetTextRecordsReturnType> {
  const node = namehash(name);
  const values = await Promise.all(
    keys.map((key) =>
      orMissing(
        readContract(client, {
          address: resolverAddress,
          abi: textResolverAbi,
          functionName: 'text',
          args: [node, key],
        }),
      ),
    ),
  );
  return keys.flatMap((key, i) => {
    const value = values[i]?.trim();
    return value ? [{ key, value }] : [];
  });
}
