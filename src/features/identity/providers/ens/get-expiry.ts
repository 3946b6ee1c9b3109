import { type Address, type Client, hexToBigInt } from 'viem';
import { readContract } from 'viem/actions';
import { labelhash } from 'viem/ens';
import { baseRegistrarAbi } from './abis.js';

export type GetExpiryParameters = {
  /** Normalized full name. */
  name: string;
  /** The registrar that issues the second-level names as ERC-721 tokens (token id = labelhash). */
  baseRegistrarAddress: Address;
  /** The name the registrar owns: `eth` for ENS, `base.eth` for Basenames. */
  registrarName: string;
};
export type GetExpiryReturnType = Date | null;

/**
 * Expiry of a name issued by a base registrar. Only direct children of `registrarName` have one;
 * subnames and names outside the registrar return null, as does a label never registered (0).
 *
 * @example
 * const expiry = await getExpiry(client, { name: 'alice.eth', baseRegistrarAddress, registrarName: 'eth' })
 * // Date or null
 */
export async function getExpiry(
  client: Client,
  { name, baseRegistrarAddress, registrarName }: GetExpiryParameters,
): Promise<GetExpiryReturnType> {
  const suffix = `.${registrarName}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  if (label.length === 0 || label.includes('.')) return null;
  const expires = await readContract(client, {
    address: baseRegistrarAddress,
    abi: baseRegistrarAbi,
    functionName: 'nameExpires',
    args: [hexToBigInt(labelhash(label))],
  });
  return expires === 0n ? null : new Date(Number(expires) * 1000);
}
