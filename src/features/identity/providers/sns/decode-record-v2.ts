import type { PublicKey } from '@solana/web3.js';
import { getAddress } from 'viem';
import { type BonfidaRecord, bonfida, Validation } from './bonfida-sdk.js';
import type { SnsRecord } from './get-record-key.js';

/**
 * Records V2 data after the 96-byte name-registry header (SNS-IP 3, "Record v2 (amended)",
 * https://github.com/SolanaNameService/sns-ip/blob/master/proposals/sns-ip-3.md; sns-records
 * `RecordHeader`): staleness validation u16 LE | RoA validation u16 LE | content length u32 LE, then the
 * staleness id, the RoA id (each as long as its validation's id, see `ID_LENGTH`) and the content.
 */
const RECORD_HEADER_LEN = 8;

/** Id length per validation type (sns-records `get_validation_length`): None 0, Solana 32, Ethereum 20. */
const ID_LENGTH: Partial<Record<number, number>> = {
  [Validation.None]: 0,
  [Validation.Solana]: 32,
  [Validation.Ethereum]: 20,
  [Validation.UnverifiedSolana]: 32,
};

/** The SDK's record enum for each record read here (the values are the same strings). */
const { Record: R } = bonfida;
const SDK_RECORD: Record<SnsRecord, BonfidaRecord> = {
  SOL: R.SOL,
  ETH: R.ETH,
  BSC: R.BSC,
  BTC: R.BTC,
  url: R.Url,
  email: R.Email,
  twitter: R.Twitter,
  github: R.Github,
  discord: R.Discord,
  telegram: R.Telegram,
  pic: R.Pic,
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * What a V2 record account says: its value when it passes the checks, else why it is ignored.
 * `stale`: written under a former owner; `unverified`: its right of association is not proven;
 * `malformed`: the bytes do not follow the layout or the record's encoding.
 */
export type RecordV2 = { status: 'valid'; value: string } | { status: 'stale' | 'unverified' | 'malformed' };

export interface DecodeRecordV2Parameters {
  record: SnsRecord;
  /** Record account data after the 96-byte name-registry header. */
  data: Buffer;
  /** Who owns the domain now (NFT holder when tokenized, else the registry owner); null when nobody does. */
  holder: PublicKey | null;
}

/**
 * Decodes and verifies a Records V2 account the way Bonfida's `getMultipleRecordsV2` judges it:
 * - staleness: the staleness id must be the domain's current holder, validated by a Solana signature;
 *   a record written by a former owner is stale;
 * - right of association, for records that have one: the record's own key signed it (SOL with a Solana
 *   signature; ETH/BSC with an Ethereum one), or the record's guardian did (`url`);
 * - content decoded by the SDK's `deserializeRecordV2Content` (SNS-IP 1 encodings); EVM addresses
 *   come back EIP-55 checksummed, text must be valid UTF-8.
 * Nothing throws: a record is user data, and one bad record must not hide a name.
 *
 * @example
 * decodeRecordV2({ record: 'SOL', data, holder }); // { status: 'valid', value: '<base58>' }
 */
export function decodeRecordV2({ record, data, holder }: DecodeRecordV2Parameters): RecordV2 {
  if (data.length < RECORD_HEADER_LEN) return { status: 'malformed' };
  const stalenessValidation = data.readUInt16LE(0);
  const roaValidation = data.readUInt16LE(2);
  const contentLength = data.readUInt32LE(4);
  const stalenessLength = ID_LENGTH[stalenessValidation];
  const roaLength = ID_LENGTH[roaValidation];
  if (stalenessLength === undefined || roaLength === undefined) return { status: 'malformed' };
  const roaStart = RECORD_HEADER_LEN + stalenessLength;
  const contentStart = roaStart + roaLength;
  if (contentStart + contentLength > data.length) return { status: 'malformed' };
  const stalenessId = data.subarray(RECORD_HEADER_LEN, roaStart);
  const roaId = data.subarray(roaStart, contentStart);
  const content = data.subarray(contentStart, contentStart + contentLength);

  if (!holder || stalenessValidation !== Validation.Solana || !holder.toBuffer().equals(stalenessId)) {
    return { status: 'stale' };
  }

  const sdkRecord = SDK_RECORD[record];
  const roaSigner = bonfida.SELF_SIGNED.has(sdkRecord) ? content : bonfida.GUARDIANS.get(sdkRecord)?.toBuffer();
  if (roaSigner !== undefined) {
    const expected = bonfida.ETH_ROA_RECORDS.has(sdkRecord) ? Validation.Ethereum : Validation.Solana;
    if (roaValidation !== expected || !roaSigner.equals(roaId)) return { status: 'unverified' };
  }

  const value = decodeContent(record, sdkRecord, content);
  return value === undefined ? { status: 'malformed' } : { status: 'valid', value };
}

function decodeContent(record: SnsRecord, sdkRecord: BonfidaRecord, content: Buffer): string | undefined {
  if (content.length === 0) return undefined;
  // The SDK accepts any length for these and would turn 31 bytes into a valid-looking key.
  if (record === 'SOL' && content.length !== 32) return undefined;
  if ((record === 'ETH' || record === 'BSC') && content.length !== 20) return undefined;
  let value: string;
  try {
    value = bonfida.deserializeRecordV2Content(content, sdkRecord);
  } catch {
    return undefined;
  }
  if (record === 'ETH' || record === 'BSC') return getAddress(value);
  if (record === 'SOL') return value;
  // The SDK decodes text leniently (U+FFFD for bad bytes); a record that is not UTF-8 is not text.
  try {
    utf8.decode(content);
  } catch {
    return undefined;
  }
  const text = value.trim();
  return text.length > 0 ? text : undefined;
}
