import type { PublicKey } from '@solana/web3.js';
import { getHashedName } from './get-hashed-name.js';
import { getNameAccountKey } from './get-name-account-key.js';

/**
 * Records SNS stores as V1 record accounts, with the key under which SNS-IP 1 names them.
 * Binary records have a fixed size; the others are UTF-8 strings.
 */
export const SNS_RECORDS = [
  'SOL',
  'ETH',
  'BSC',
  'BTC',
  'url',
  'email',
  'twitter',
  'github',
  'discord',
  'telegram',
  'pic',
] as const;
export type SnsRecord = (typeof SNS_RECORDS)[number];

/**
 * Derives the V1 record account of a domain: a child name account of the domain named `\x01` + record
 * (the prefix separates V1 records from subdomains, `\0`, and V2 records, `\x02`). For a subdomain pass
 * the subdomain's own account.
 *
 * @example
 * const urlKey = getRecordKey(getDomainKey('bonfida.sol').pubkey, 'url');
 */
export function getRecordKey(domainKey: PublicKey, record: SnsRecord): PublicKey {
  return getNameAccountKey({ hashedName: getHashedName(`\x01${record}`), parent: domainKey });
}
