import { normalize } from 'viem/ens';

export type NormalizeNameReturnType = string;

/**
 * ENSIP-15 normalization of a full name, as ENS clients do before hashing it. Unlike viem's
 * `normalize`, an empty name is rejected: it would hash to the root node, which is never a name.
 *
 * @example
 * normalizeName('VitaLik.ETH') // 'vitalik.eth'
 * normalizeName('a..eth') // throws: empty label
 */
export function normalizeName(name: string): NormalizeNameReturnType {
  if (name.length === 0) throw new Error('Invalid name: empty');
  return normalize(name);
}
