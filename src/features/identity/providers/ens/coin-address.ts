import { createHash } from 'node:crypto';
import { bech32, bech32m, createBase58check, base58 as scureBase58 } from '@scure/base';
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

/** Base58 (Bitcoin alphabet): Solana public keys and legacy Bitcoin addresses. */
export function base58(bytes: Uint8Array): string {
  return scureBase58.encode(bytes);
}

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();
/** Base58Check (version byte, payload, first 4 bytes of double SHA-256), as legacy Bitcoin addresses use. */
const base58check = createBase58check(sha256);

/**
 * ENSIP-9 stores Bitcoin addresses as their scriptPubkey. The standard templates are turned back into
 * mainnet addresses (P2PKH, P2SH, SegWit v0 and Taproot-style v1+); any other script has no address.
 */
function bitcoinAddress(script: Uint8Array): string | null {
  // P2PKH: OP_DUP OP_HASH160 <20> … OP_EQUALVERIFY OP_CHECKSIG
  if (script.length === 25 && script[0] === 0x76 && script[1] === 0xa9 && script[2] === 0x14) {
    if (script[23] !== 0x88 || script[24] !== 0xac) return null;
    return base58check.encode(Uint8Array.of(0x00, ...script.subarray(3, 23)));
  }
  // P2SH: OP_HASH160 <20> … OP_EQUAL
  if (script.length === 23 && script[0] === 0xa9 && script[1] === 0x14 && script[22] === 0x87) {
    return base58check.encode(Uint8Array.of(0x05, ...script.subarray(2, 22)));
  }
  // SegWit: OP_n <program>, with n = 0 (0x00) or 1..16 (0x51..0x60)
  const op = script[0];
  const len = script[1];
  if (op === undefined || len === undefined || script.length !== len + 2 || len < 2 || len > 40) return null;
  const version = op === 0 ? 0 : op >= 0x51 && op <= 0x60 ? op - 0x50 : -1;
  if (version < 0 || (version === 0 && len !== 20 && len !== 32)) return null;
  return segwitAddress('bc', version, script.subarray(2));
}

/** BIP-173 (v0, bech32) and BIP-350 (v1+, bech32m): the witness version, then the program in 5-bit words. */
function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const coder = version === 0 ? bech32 : bech32m;
  return coder.encode(hrp, [version, ...coder.toWords(program)]);
}
