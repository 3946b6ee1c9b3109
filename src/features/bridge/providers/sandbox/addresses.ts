import { base58 as base58Codec } from '@scure/base';
import * as Address from 'ox/Address';
import * as Bytes from 'ox/Bytes';
import * as Hash from 'ox/Hash';
import * as Hex from 'ox/Hex';
import type { ChainFamily } from '../../../../platform/chains/registry.js';

const BITCOIN_ADDRESS = /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/;

/**
 * Whether a Solana address is base58 of 32 bytes, which is all `new PublicKey(address)` checks; without
 * @solana/web3.js, which the sandbox loads only to build a Solana transaction.
 */
export function isSolanaKey(address: string): boolean {
  try {
    return base58Codec.decode(address).length === 32;
  } catch {
    return false;
  }
}

/**
 * Whether `address` is a wallet address on a chain of `family`. Bitcoin addresses are only checked
 * for shape (base58 or bech32 mainnet forms), which is enough for the sandbox to refuse nonsense.
 */
export function isFamilyAddress(family: ChainFamily, address: string): boolean {
  switch (family) {
    case 'evm':
      return Address.validate(address, { strict: false });
    case 'solana':
      return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && isSolanaKey(address);
    case 'bitcoin':
      return BITCOIN_ADDRESS.test(address);
    default:
      return false;
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
  const first = Hash.keccak256(Bytes.fromString(seed));
  switch (family) {
    case 'solana':
      return base58(new Uint8Array([...first, ...Hash.keccak256(first)]));
    case 'bitcoin':
      return Hex.fromBytes(first).slice(2);
    default:
      return Hex.fromBytes(first);
  }
}
