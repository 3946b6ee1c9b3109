import { type AccountInfo, PublicKey } from '@solana/web3.js';
import { NAME_PROGRAM_ID, NAME_REGISTRY_HEADER_LEN } from './constants.js';

/** A name-registry account: the 96-byte header the name program writes, then the owner's data. */
export interface NameRegistry {
  parentName: PublicKey;
  owner: PublicKey;
  nameClass: PublicKey;
  /** Everything after the header; accounts are allocated up front, so the tail is usually zero padding. */
  data: Buffer;
}

/** Raised when an account at a name address does not have the name program's layout: the RPC answer is wrong. */
export class MalformedAccountError extends Error {
  override name = 'MalformedAccountError';
}

/**
 * Decodes a name-registry account (`parentName 32 | owner 32 | class 32 | data`). An account at a name
 * address that the name program does not own, or that is shorter than the header, cannot be a name.
 *
 * @example
 * const info = await connection.getAccountInfo(getDomainKey('bonfida.sol').pubkey);
 * const registry = info && decodeNameRegistry(info);
 */
export function decodeNameRegistry(account: Pick<AccountInfo<Buffer>, 'data' | 'owner'>): NameRegistry {
  if (!account.owner.equals(NAME_PROGRAM_ID)) {
    throw new MalformedAccountError(`name account owned by ${account.owner.toBase58()}, not the name program`);
  }
  const { data } = account;
  if (data.length < NAME_REGISTRY_HEADER_LEN) {
    throw new MalformedAccountError(`name account has ${data.length} bytes, shorter than its 96-byte header`);
  }
  return {
    parentName: new PublicKey(data.subarray(0, 32)),
    owner: new PublicKey(data.subarray(32, 64)),
    nameClass: new PublicKey(data.subarray(64, 96)),
    data: data.subarray(NAME_REGISTRY_HEADER_LEN),
  };
}

/**
 * Decodes the name a reverse-lookup account holds: a u32 little-endian length, then that many UTF-8 bytes.
 * Subdomain reverse accounts store the label with the `\0` prefix it was hashed with; it is dropped here.
 *
 * @example
 * decodeReverseName(decodeNameRegistry(reverseAccount).data); // 'bonfida'
 */
export function decodeReverseName(data: Buffer): string {
  if (data.length < 4) throw new MalformedAccountError('reverse-lookup data shorter than its length prefix');
  const length = data.readUInt32LE(0);
  if (length === 0 || 4 + length > data.length) {
    throw new MalformedAccountError(`reverse-lookup length ${length} does not fit ${data.length - 4} bytes`);
  }
  const name = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(4, 4 + length));
  return name.startsWith('\0') ? name.slice(1) : name;
}
