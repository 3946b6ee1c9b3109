import type { PublicKey } from '@solana/web3.js';
import { REVERSE_LOOKUP_CLASS } from './constants.js';
import { getHashedName } from './get-hashed-name.js';
import { getNameAccountKey } from './get-name-account-key.js';

/**
 * Derives the reverse-lookup account of a name account: the hashed base58 of the domain key, with the
 * reverse-lookup class (so only the registrar can write it) and, for a subdomain, the parent domain as parent.
 *
 * @example
 * const reverseKey = getReverseKey(getDomainKey('bonfida.sol').pubkey);
 */
export function getReverseKey(domainKey: PublicKey, parent?: PublicKey): PublicKey {
  return getNameAccountKey({
    hashedName: getHashedName(domainKey.toBase58()),
    nameClass: REVERSE_LOOKUP_CLASS,
    parent,
  });
}
