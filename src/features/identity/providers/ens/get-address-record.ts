import { type Address, type Client, type Hex, zeroAddress } from 'viem';
import { namehash } from 'viem/ens';
import { addrResolverAbi } from './abis.js';
import { COIN_TYPE_ETHEREUM } from './coin-address.js';
import { orMissing } from './errors.js';
import type { EnsResolver } from './get-resolver.js';
import { readResolver } from './read-resolver.js';

export type GetAddressRecordParameters = {
  /** The name's resolver, from `getResolver` (exact, wildcard or offchain). */
  resolver: EnsResolver;
  /** SLIP-44 / ENSIP-11 coin type; 60 is Ethereum. */
  coinType: number;
};
/** The ENSIP-9 binary form of the address (20 bytes for EVM chains), or null when unset. */
export type GetAddressRecordReturnType = Hex | null;

/**
 * Reads one address record from a resolver. Ethereum (coin type 60) goes through `addr(bytes32)`,
 * which every resolver since the original one implements; other coin types use ENSIP-9's
 * `addr(bytes32,uint256)`. A resolver without that profile counts as having no record.
 *
 * @example
 * const raw = await getAddressRecord(client, { resolver, coinType: 501 })
 * // '0x…' (32 bytes: a Solana public key) or null
 */
export async function getAddressRecord(
  client: Client,
  { resolver, coinType }: GetAddressRecordParameters,
): Promise<GetAddressRecordReturnType> {
  const node = namehash(resolver.name);
  if (coinType === COIN_TYPE_ETHEREUM) {
    const address = (await orMissing(
      readResolver(client, { resolver, abi: addrResolverAbi, functionName: 'addr', args: [node] }),
    )) as Address | null;
    return address === null || address === zeroAddress ? null : (address.toLowerCase() as Hex);
  }
  const data = (await orMissing(
    readResolver(client, { resolver, abi: addrResolverAbi, functionName: 'addr', args: [node, BigInt(coinType)] }),
  )) as Hex | null;
  return data === null || data === '0x' ? null : data;
}
