import { base58 } from '@scure/base';
import { getAddress, isAddress } from 'viem';
import { txtRecordType } from '../txt-records.js';
import type { ChainAddress, TxtRecord } from '../types.js';

/**
 * UNS address records whose chain is unambiguous, with the CAIP-2 id of that chain. Keys and their
 * meaning from `@unstoppabledomains/uns` 1.0.17 `resolver-keys.json` (v2.1.33); token records
 * (`crypto.USDT.version.ERC20.address`, …) name a token rather than a chain and are left out.
 */
const ADDRESS_KEYS = {
  'crypto.ETH.address': { caip2Id: 'eip155:1', family: 'evm' },
  'crypto.MATIC.version.MATIC.address': { caip2Id: 'eip155:137', family: 'evm' },
  'crypto.BNB.version.BEP20.address': { caip2Id: 'eip155:56', family: 'evm' },
  // Its validation regex is `^0x…`: the C-Chain address.
  'crypto.AVAX.address': { caip2Id: 'eip155:43114', family: 'evm' },
  'crypto.FTM.version.OPERA.address': { caip2Id: 'eip155:250', family: 'evm' },
  'crypto.SOL.address': { caip2Id: 'solana:mainnet-beta', family: 'solana' },
  'crypto.BTC.address': { caip2Id: 'bip122:000000000019d6689c085ae165831e93', family: 'bitcoin' },
} as const satisfies Record<string, { caip2Id: string; family: 'evm' | 'solana' | 'bitcoin' }>;

/** Text records read, with the ENSIP-5 key of the same meaning that types them (see `txtRecordType`). */
const TEXT_KEYS = {
  'social.twitter.username': 'com.twitter',
  'social.picture.value': 'avatar',
  'whois.email.value': 'email',
  'browser.redirect_url': 'url',
  'ipfs.html.value': 'ipfs.html.value',
  'dweb.ipfs.hash': 'dweb.ipfs.hash',
} as const;

export const UNS_AVATAR_KEY = 'social.picture.value';
export const UNS_ETH_ADDRESS_KEY = 'crypto.ETH.address';
export const UNS_POLYGON_ADDRESS_KEY = 'crypto.MATIC.version.MATIC.address';

/** Every key `records` reads, in one `getData` call. */
export const UNS_RECORD_KEYS: readonly string[] = [...Object.keys(ADDRESS_KEYS), ...Object.keys(TEXT_KEYS)];

// resolver-keys.json's pattern for crypto.BTC.address.
const BTC_ADDRESS = /^bc1[ac-hj-np-z02-9]{6,87}$|^[13][a-km-zA-HJ-NP-Z1-9]{25,39}$/;

/** A record value in its chain's canonical form, or null when it is not an address of that chain. */
function chainAddress(family: 'evm' | 'solana' | 'bitcoin', value: string): string | null {
  switch (family) {
    case 'evm':
      return isAddress(value, { strict: false }) && !/^0x0{40}$/i.test(value) ? getAddress(value) : null;
    case 'solana':
      try {
        return base58.decode(value).length === 32 ? value : null;
      } catch {
        return null;
      }
    case 'bitcoin':
      return BTC_ADDRESS.test(value) ? value : null;
  }
}

/** The address of an EVM record key, checksummed, or null when unset or malformed. */
export function evmRecord(values: ReadonlyMap<string, string>, key: string): string | null {
  const value = values.get(key);
  return value ? chainAddress('evm', value) : null;
}

/** `crypto.<TICKER>….address` records as chain addresses; unset and malformed records are left out. */
export function multichainAddresses(values: ReadonlyMap<string, string>): ChainAddress[] {
  return Object.entries(ADDRESS_KEYS).flatMap(([key, { caip2Id, family }]) => {
    const value = values.get(key);
    const address = value ? chainAddress(family, value) : null;
    return address ? [{ address, caip2Id }] : [];
  });
}

/** The text records set, under UD's own keys, typed as their ENSIP-5 counterparts are. */
export function textRecords(values: ReadonlyMap<string, string>): TxtRecord[] {
  return Object.entries(TEXT_KEYS).flatMap(([key, ensKey]) => {
    const value = values.get(key);
    return value ? [{ key, value, type: txtRecordType(ensKey) }] : [];
  });
}
