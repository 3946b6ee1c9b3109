import type { PublicKey } from '@solana/web3.js';
import { SNS_RECORDS_CENTRAL_STATE } from './constants.js';
import { getHashedName } from './get-hashed-name.js';
import { getNameAccountKey } from './get-name-account-key.js';

/**
 * Records read here, with the key under which SNS-IP 1 names them (V1 and V2 use the same names).
 * V1 binary records have a fixed size; the others are UTF-8 strings.
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

/**
 * Derives the Records V2 account of a domain (SNS-IP 3; `getRecordV2Key` in `@bonfida/spl-name-service`):
 * a child name account of the domain named `\x02` + record, whose class is the SNS Records central state,
 * so only the Records program can create it. For a subdomain pass the subdomain's own account.
 *
 * @example
 * const solKey = getRecordV2Key(getDomainKey('bonfida.sol').pubkey, 'SOL');
 */
export function getRecordV2Key(domainKey: PublicKey, record: SnsRecord): PublicKey {
  return getNameAccountKey({
    hashedName: getHashedName(`\x02${record}`),
    nameClass: SNS_RECORDS_CENTRAL_STATE,
    parent: domainKey,
  });
}
