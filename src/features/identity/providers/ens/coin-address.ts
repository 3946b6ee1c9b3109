import { createHash } from 'node:crypto';
import { getAddress, type Hex, hexToBytes } from 'viem';
import { chainByCoinType } from '../../../../platform/chains/registry.js';
import type { ChainAddress } from '../types.js';

/** SLIP-44 coin types with a decoder here; EVM chains use ENSIP-11 types, see `evmChainIdOfCoinType`. */
export const COIN_TYPE_BITCOIN = 0;
export const COIN_TYPE_ETHEREUM = 60;
export const COIN_TYPE_SOLANA = 501;

const EVM_BIT = 0x80000000;

/** ENSIP-11: the EVM chain id behind a coin type (60 is Ethereum), or undefined for non-EVM coin types. */
export function evmChainIdOfCoinType(coinType: number): number | undefined {
  if (coinType === COIN_TYPE_ETHEREUM) return 1;
  if (coinType >= EVM_BIT && coinType <= 0xffffffff) return coinType - EVM_BIT;
  return undefined;
}

/**
 * Decodes an ENSIP-9 binary address record into the chain's text form and its CAIP-2 chain id.
 * Returns null for data that is not a well-formed address of that chain, or a coin type without a
 * decoder: showing raw bytes as an address would mislead more than leaving it out.
 *
 * @example
 * decodeCoinAddress(501, '0x…32 bytes') // { address: '<base58>', caip2Id: 'solana:mainnet-beta' }
 */
export function decodeCoinAddress(coinType: number, data: Hex): ChainAddress | null {
  const bytes = hexToBytes(data);
  if (bytes.length === 0) return null;
  const address = encodeAddress(coinType, bytes);
  if (address === null) return null;
  const caip2Id = caip2IdOfCoinType(coinType);
  return caip2Id === null ? null : { address, caip2Id };
}

export function caip2IdOfCoinType(coinType: number): string | null {
  const known = chainByCoinType(coinType);
  if (known) return known.caip2Id;
  const chainId = evmChainIdOfCoinType(coinType);
  // EVM chains outside the registry still have a well-defined CAIP-2 id; other families do not.
  return chainId === undefined || chainId === 0 ? null : `eip155:${chainId}`;
}

function encodeAddress(coinType: number, bytes: Uint8Array): string | null {
  if (evmChainIdOfCoinType(coinType) !== undefined) {
    if (bytes.length !== 20 || bytes.every((b) => b === 0)) return null;
    return getAddress(toHex(bytes));
  }
  if (coinType === COIN_TYPE_SOLANA) return bytes.length === 32 ? base58(bytes) : null;
  if (coinType === COIN_TYPE_BITCOIN) return bitcoinAddress(bytes);
  return null;
}

const toHex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet): Solana public keys and legacy Bitcoin addresses. */
export function base58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = BASE58_ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return '1'.repeat(zeros) + out;
}

const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

function base58check(version: number, payload: Uint8Array): string {
  const body = Uint8Array.of(version, ...payload);
  const checksum = sha256(sha256(body)).subarray(0, 4);
  return base58(Uint8Array.of(...body, ...checksum));
}

/**
 * ENSIP-9 stores Bitcoin addresses as their scriptPubkey. The standard templates are turned back into
 * mainnet addresses (P2PKH, P2SH, SegWit v0 and Taproot-style v1+); any other script has no address.
 */
function bitcoinAddress(script: Uint8Array): string | null {
  // P2PKH: OP_DUP OP_HASH160 <20> … OP_EQUALVERIFY OP_CHECKSIG
  if (script.length === 25 && script[0] === 0x76 && script[1] === 0xa9 && script[2] === 0x14) {
    if (script[23] !== 0x88 || script[24] !== 0xac) return null;
    return base58check(0x00, script.subarray(3, 23));
  }
  // P2SH: OP_HASH160 <20> … OP_EQUAL
  if (script.length === 23 && script[0] === 0xa9 && script[1] === 0x14 && script[22] === 0x87) {
    return base58check(0x05, script.subarray(2, 22));
  }
  // SegWit: OP_n <program>, with n = 0 (0x00) or 1..16 (0x51..0x60)
  const op = script[0];
  const len = script[1];
  if (op === undefined || len === undefined || script.length !== len + 2 || len < 2 || len > 40) return null;
  const version = op === 0 ? 0 : op >= 0x51 && op <= 0x60 ? op - 0x50 : -1;
  if (version < 0 || (version === 0 && len !== 20 && len !== 32)) return null;
  return segwitAddress('bc', version, script.subarray(2));
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

function bech32Polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    BECH32_GENERATORS.forEach((g, i) => {
      if ((top >>> i) & 1) chk = (chk ^ g) >>> 0;
    });
  }
  return chk;
}

/** BIP-173 (v0, bech32) and BIP-350 (v1+, bech32m) encoding. */
function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const data = [version, ...convertBits(program, 8, 5)];
  const hrpCodes = [...hrp].map((c) => c.charCodeAt(0));
  const expanded = [...hrpCodes.map((c) => c >> 5), 0, ...hrpCodes.map((c) => c & 31)];
  const mod = bech32Polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ (version === 0 ? BECH32_CONST : BECH32M_CONST);
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32_CHARSET[d]).join('')}`;
}

function convertBits(data: Uint8Array, from: number, to: number): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  // Only the bits not yet emitted matter; masking keeps `acc` inside 32-bit integer range.
  const keep = (1 << (from + to - 1)) - 1;
  for (const value of data) {
    acc = ((acc << from) | value) & keep;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (bits > 0) out.push((acc << (to - bits)) & max);
  return out;
}
