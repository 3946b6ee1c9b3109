import { createPublicKey, verify } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import { getAddress } from 'viem';
import type { SnsRecord } from './get-record-key.js';

/** Fixed-size binary records (SNS-IP 1); every other V1 record is a null-padded UTF-8 string. */
const BINARY_SIZE: Partial<Record<SnsRecord, number>> = { SOL: 96, ETH: 20, BSC: 20 };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const EVM_TEXT = /^0x[0-9a-fA-F]{40}$/;

export interface DecodeRecordV1Parameters {
  record: SnsRecord;
  /** Record account data after the 96-byte header. */
  data: Buffer;
  /** The record account's own address: a SOL record signs it, so a copied record does not verify. */
  recordKey: PublicKey;
  /** The domain's registry owner, who must have signed a SOL record. */
  domainOwner: PublicKey;
}

/**
 * Decodes a V1 record the way Bonfida's SDK does (`deserializeRecord`), but returns undefined instead of
 * throwing for content that does not decode: a record is user data and one bad record must not hide a name.
 *
 * - string records: UTF-8 up to the zero padding;
 * - ETH/BSC: 20 raw address bytes, or the older `0x…` text form; returned EIP-55 checksummed;
 * - SOL: a 32-byte address plus the domain owner's ed25519 signature over the hex of
 *   `address || recordKey`; an unsigned or stale (signed by a former owner) SOL record is ignored.
 *
 * @example
 * decodeRecordV1({ record: 'url', data, recordKey, domainOwner }); // 'https://bonfida.org'
 */
export function decodeRecordV1({ record, data, recordKey, domainOwner }: DecodeRecordV1Parameters): string | undefined {
  const end = contentEnd(data);
  if (end === 0) return undefined;
  const size = BINARY_SIZE[record];
  if (size === undefined) return decodeText(data.subarray(0, end));

  if (record === 'SOL') {
    if (data.length < size) return undefined;
    const target = data.subarray(0, 32);
    const message = Buffer.from(Buffer.concat([target, recordKey.toBuffer()]).toString('hex'), 'utf8');
    return verifyEd25519(domainOwner, message, data.subarray(32, 96)) ? new PublicKey(target).toBase58() : undefined;
  }

  // The text form is 42 bytes; 20 raw bytes whose last bytes happen to be zero still end at or before 20.
  if (end > size) {
    const text = decodeText(data.subarray(0, end));
    return text !== undefined && EVM_TEXT.test(text) ? getAddress(text) : undefined;
  }
  if (data.length < size) return undefined;
  return getAddress(`0x${data.subarray(0, size).toString('hex')}`);
}

/** Index after the last non-zero byte: records are written into zero-filled, over-allocated accounts. */
function contentEnd(data: Buffer): number {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  return end;
}

function decodeText(bytes: Buffer): string | undefined {
  try {
    const text = utf8.decode(bytes).trim();
    return text.length > 0 ? text : undefined;
  } catch {
    return undefined;
  }
}

function verifyEd25519(signer: PublicKey, message: Buffer, signature: Buffer): boolean {
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: signer.toBuffer().toString('base64url') },
      format: 'jwk',
    });
    return verify(null, message, key, signature);
  } catch {
    // An owner that is not a valid ed25519 point (a PDA) cannot have signed anything.
    return false;
  }
}
