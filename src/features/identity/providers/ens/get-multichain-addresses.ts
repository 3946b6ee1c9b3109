import type { Client } from 'viem';
import type { ChainAddress } from '../types.js';
import { decodeCoinAddress } from './coin-address.js';
import { getAddressRecord } from './get-address-record.js';
import type { EnsResolver } from './get-resolver.js';

export type GetMultichainAddressesParameters = {
  /** The name's resolver, from `getResolver`. */
  resolver: EnsResolver;
  /** Coin types to read (ENSIP-9 / ENSIP-11); a resolver cannot enumerate the ones it holds. */
  coinTypes: readonly number[];
};
export type GetMultichainAddressesReturnType = ChainAddress[];

/**
 * Reads the address records of several chains and decodes them to each chain's text form.
 * Records that are unset or do not decode to a valid address of their chain are left out.
 *
 * @example
 * const addresses = await getMultichainAddresses(client, { resolver, coinTypes: [60, 501] })
 * // [{ address: '0x…', caip2Id: 'eip155:1' }, { address: '<base58>', caip2Id: 'solana:mainnet-beta' }]
 */
export async function getMultichainAddresses(
  client: Client,
  { resolver, coinTypes }: GetMultichainAddressesParameters,
): Promise<GetMultichainAddressesReturnType> {
  const raws = await Promise.all(coinTypes.map((coinType) => getAddressRecord(client, { resolver, coinType })));
  return coinTypes.flatMap((coinType, i) => {
    const raw = raws[i];
    const decoded = raw ? decodeCoinAddress(coinType, raw) : null;
    return decoded ? [decoded] : [];
  });
}
