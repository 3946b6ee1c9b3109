import type { PublicKey } from '@solana/web3.js';
import { SOL_TLD_KEY } from './constants.js';
import { getHashedName } from './get-hashed-name.js';
import { getNameAccountKey } from './get-name-account-key.js';
import { parseSnsName } from './parse-sns-name.js';

export interface SnsDomainKey {
  /** Normalized full name. */
  name: string;
  /** Name account of the domain (or subdomain). */
  pubkey: PublicKey;
  /** Name account of the parent domain for a subdomain; undefined for a second-level domain. */
  parent: PublicKey | undefined;
}

/**
 * Derives the name account of a `.sol` domain or subdomain. A second-level domain hashes its label under
 * the `.sol` TLD; a subdomain hashes `\0` + label under its parent domain's account (the prefix keeps a
 * subdomain from colliding with the parent's records, which use `\x01`/`\x02`).
 *
 * @example
 * getDomainKey('bonfida.sol').pubkey.toBase58();     // 'Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb'
 * getDomainKey('dex.bonfida.sol').pubkey.toBase58(); // 'HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu'
 */
export function getDomainKey(fullName: string): SnsDomainKey {
  const { name, domain, sub } = parseSnsName(fullName);
  const domainKey = getNameAccountKey({ hashedName: getHashedName(domain), parent: SOL_TLD_KEY });
  if (sub === undefined) return { name, pubkey: domainKey, parent: undefined };
  const subKey = getNameAccountKey({ hashedName: getHashedName(`\0${sub}`), parent: domainKey });
  return { name, pubkey: subKey, parent: domainKey };
}
