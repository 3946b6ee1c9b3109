import type { Address, Client } from 'viem';
import { decodeCoinAddress } from './coin-address.js';
import { getAddressRecord } from './get-address-record.js';
import { type EnsResolver, getResolver } from './get-resolver.js';

export type GetAddressParameters = {
  /** Normalized full name. */
  name: string;
  registryAddress: Address;
  /** Resolver already found by `getResolver`, to spare the registry walk; looked up when absent. */
  resolver?: EnsResolver | null;
  /**
   * Coin types to try in order; the first set one wins. ENS on Ethereum uses `[60]`; an L2 names
   * service lists its chain's ENSIP-11 coin type first and 60 as the fallback most records carry.
   */
  coinTypes?: readonly number[];
};
/** The address in the chain's own text form (checksummed for EVM chains), or null. */
export type GetAddressReturnType = string | null;

/**
 * Forward resolution of a name: registry (ENSIP-10 walk) → resolver (directly, through the wildcard
 * `resolve`, or offchain via CCIP-Read) → address record.
 *
 * @example
 * const address = await getAddress(client, { name: 'vitalik.eth', registryAddress })
 * // '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' or null
 */
export async function getAddress(
  client: Client,
  { name, registryAddress, resolver: known, coinTypes = [60] }: GetAddressParameters,
): Promise<GetAddressReturnType> {
  const resolver = known === undefined ? await getResolver(client, { name, registryAddress }) : known;
  if (resolver === null) return null;
  for (const coinType of coinTypes) {
    const raw = await getAddressRecord(client, { resolver, coinType });
    const decoded = raw === null ? null : decodeCoinAddress(coinType, raw);
    if (decoded) return decoded.address;
  }
  return null;
}
