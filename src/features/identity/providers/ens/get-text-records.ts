import type { Client } from 'viem';
import { namehash } from 'viem/ens';
import { textResolverAbi } from './abis.js';
import { orMissing } from './errors.js';
import type { EnsResolver } from './get-resolver.js';
import { readResolver } from './read-resolver.js';

export type GetTextRecordsParameters = {
  /** The name's resolver, from `getResolver`. */
  resolver: EnsResolver;
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
 * const records = await getTextRecords(client, { resolver, keys: ['url', 'com.github'] })
 * // [{ key: 'url', value: 'https://alice.example' }]
 */
export async function getTextRecords(
  client: Client,
  { resolver, keys }: GetTextRecordsParameters,
): Promise<GetTextRecordsReturnType> {
  const node = namehash(resolver.name);
  const values = await Promise.all(
    keys.map((key) =>
      orMissing(readResolver(client, { resolver, abi: textResolverAbi, functionName: 'text', args: [node, key] })),
    ),
  );
  return keys.flatMap((key, i) => {
    const value = typeof values[i] === 'string' ? values[i].trim() : undefined;
    return value ? [{ key, value }] : [];
  });
}
