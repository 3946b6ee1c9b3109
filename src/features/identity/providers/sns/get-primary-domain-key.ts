import { PublicKey } from '@solana/web3.js';
import { NAME_OFFERS_ID } from './constants.js';

const SEED = Buffer.from('favourite_domain');

/**
 * Derives the account in which the name-offers program stores a wallet's primary ("favourite") domain:
 * `findProgramAddress(["favourite_domain", wallet], NAME_OFFERS_ID)`.
 *
 * @example
 * const key = getPrimaryDomainKey(new PublicKey('Fw1ETanDZafof7xEULsnq9UY6o71Tpds89tNwPkWLb1v'));
 */
export function getPrimaryDomainKey(wallet: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([SEED, wallet.toBytes()], NAME_OFFERS_ID)[0];
}
