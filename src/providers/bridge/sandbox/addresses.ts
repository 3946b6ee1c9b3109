import { PublicKey } from '@solana/web3.js';
import { bytesToHex, getAddress, type Hex, isAddress, keccak256, sha256, stringToBytes, toBytes } from 'viem';
import type { ChainFamily } from '../../../chains/registry.js';

/**
 * Where sandbox deposits point. These are NOT bridge contracts or vaults: each is derived from the
 * hash of a label, so it is well-formed for its chain but nobody holds a key for it and there is no
 * code behind it. A sandbox transaction signed on a real network would send funds there for good;
 * sandbox quotes exist for offline development and demos only.
 */
const LABEL = 'cipgate sandbox deposit: not a bridge, do not send funds';

const labelHash = (family: ChainFamily): Uint8Array => sha256(stringToBytes(`${LABEL} (${family})`), 'bytes');

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= generators[i] as number;
  }
  return chk;
}

/** BIP-173 segwit v0 address of a 20-byte witness program (P2WPKH form). */
export function segwitV0Address(hrp: string, program: Uint8Array): string {
  const words = [0];
  let acc = 0;
  let bits = 0;
  for (const byte of program) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  const hrpExpanded = [...hrp].map((c) => c.charCodeAt(0) >> 5);
  hrpExpanded.push(0, ...[...hrp].map((c) => c.charCodeAt(0) & 31));
  const polymod = bech32Polymod([...hrpExpanded, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => BECH32_CHARSET[w]).join('')}`;
}

export const SANDBOX_DEPOSIT_ADDRESS = {
  evm: getAddress(bytesToHex(labelHash('evm').slice(12))),
  solana: new PublicKey(labelHash('solana')).toBase58(),
  bitcoin: segwitV0Address('bc', labelHash('bitcoin').slice(12)),
} as const;

const BITCOIN_ADDRESS = /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/;

/** Public key bytes of a Solana address, or undefined when it is not base58 of 32 bytes. */
export function solanaKey(address: string): PublicKey | undefined {
  try {
    return new PublicKey(address);
  } catch {
    return undefined;
  }
}

/**
 * Whether `address` is a wallet address on a chain of `family`. Bitcoin addresses are only checked
 * for shape (base58 or bech32 mainnet forms), which is enough for the sandbox to refuse nonsense.
 */
export function isFamilyAddress(family: ChainFamily, address: string): boolean {
  switch (family) {
    case 'evm':
      return isAddress(address, { strict: false });
    case 'solana':
      return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && solanaKey(address) !== undefined;
    case 'bitcoin':
      return BITCOIN_ADDRESS.test(address);
    default:
      return false;
  }
}

/**
 * An address of another chain as deposit calldata `bytes`: 20 bytes on EVM, the 32-byte public key
 * on Solana (the native SOL address `111…1` is 32 zero bytes), the UTF-8 text of a Bitcoin address
 * or token id, which has no fixed binary width.
 */
export function foreignAddressBytes(family: ChainFamily, address: string): Hex {
  switch (family) {
    case 'evm':
      return bytesToHex(toBytes(getAddress(address)));
    case 'solana': {
      const key = solanaKey(address);
      if (!key) throw new RangeError(`not a Solana address: ${address}`);
      return bytesToHex(key.toBytes());
    }
    default:
      return bytesToHex(stringToBytes(address));
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet) of arbitrary bytes, for Solana-style signatures. */
export function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A transaction id in the format of the chain family, derived from a seed (sandbox fills only). */
export function syntheticTxHash(family: ChainFamily, seed: string): string {
  const first = keccak256(stringToBytes(seed), 'bytes');
  switch (family) {
    case 'solana':
      return base58(new Uint8Array([...first, ...keccak256(first, 'bytes')]));
    case 'bitcoin':
      return bytesToHex(first).slice(2);
    default:
      return bytesToHex(first);
  }
}
