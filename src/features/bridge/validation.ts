/**
 * Input rules of the bridge calls, shared by GraphQL and REST so both answer the same 400 with a
 * message that names the parameter. Quote transaction data is signed and sent as is, so anything
 * that could make it wrong (an address of another chain family, a fractional amount) is refused here
 * rather than passed to an upstream that might interpret it differently.
 */
import { base58 } from '@scure/base';
// ox's per-module entry points, not viem: viem (built on ox) loads all of itself from one index, too
// much to keep resident in a process that only checks addresses. viem stays for RPC clients, loaded on demand.
import * as Address from 'ox/Address';
import { parseCaip2 } from '../../platform/chains/caip2.js';
import { type ChainFamily, NATIVE_EVM, NATIVE_SOLANA } from '../../platform/chains/registry.js';
import { badInput, quoted } from '../../platform/errors.js';
import { NATIVE_BITCOIN } from './providers/catalogue-seed/index.js';
import type { QuoteRequest, RouteOrder } from './providers/types.js';
import type { BridgeQuoteInput } from './types.js';

export const DEFAULT_SLIPPAGE = 0.03;
export const MAX_SLIPPAGE = 0.5;
export const DEFAULT_MAX_ROUTES = 5;
export const MAX_ROUTES_LIMIT = 20;
export const ORDERS: readonly RouteOrder[] = ['CHEAPEST', 'FASTEST'];
/** Bridge names as LI.FI and Across spell them (`stargateV2`, `across`, `cbridge`), compared lower-case. */
const BRIDGE_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/i;
const MAX_BRIDGES = 30;
const UINT256_MAX = 2n ** 256n - 1n;

/** Families whose addresses cipgate can check; a chain of another namespace cannot be bridged. */
const FAMILY_OF_NAMESPACE: Record<string, ChainFamily> = { eip155: 'evm', solana: 'solana', bip122: 'bitcoin' };

export function familyOf(caip2Id: string): ChainFamily | undefined {
  const parsed = parseCaip2(caip2Id);
  return parsed ? FAMILY_OF_NAMESPACE[parsed.namespace] : undefined;
}

/** Throws a 400 unless `value` is a CAIP-2 chain id without wildcard. */
export function requireCaip2(name: string, value: string): void {
  const parsed = parseCaip2(value);
  if (!parsed || parsed.reference === '*') {
    throw badInput(`${name} must be a CAIP-2 chain id such as "eip155:1" (namespace:reference), got ${quoted(value)}`);
  }
}

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BITCOIN_ADDRESS = /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/;

/**
 * An EVM address: 20 bytes of hex. Mixed case is an EIP-55 checksum and must be right, because a
 * wrong one means the address was mistyped; all-lower and all-upper carry no checksum.
 */
function isEvmAddress(value: string): boolean {
  if (!EVM_HEX.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return Address.checksum(value) === value;
}

/** A Solana address: base58 of exactly 32 bytes (the native-token address `111…1` is 32 zero bytes). */
function isSolanaAddress(value: string): boolean {
  if (value.length < 32 || value.length > 44 || !BASE58.test(value)) return false;
  try {
    // What `new PublicKey(value)` checks, without loading @solana/web3.js in every process.
    return base58.decode(value).length === 32;
  } catch {
    return false;
  }
}

export function isWalletAddress(family: ChainFamily, value: string): boolean {
  switch (family) {
    case 'evm':
      return isEvmAddress(value);
    case 'solana':
      return isSolanaAddress(value);
    case 'bitcoin':
      return BITCOIN_ADDRESS.test(value);
    default:
      return false;
  }
}

/** Token addresses: contracts on EVM, mints on Solana; Bitcoin has only its native coin. */
export function isTokenAddress(family: ChainFamily, value: string): boolean {
  return family === 'bitcoin' ? value === NATIVE_BITCOIN : isWalletAddress(family, value);
}

const NATIVE_HINT: Partial<Record<ChainFamily, string>> = {
  evm: `a 0x-prefixed 20-byte hex address (native token: ${NATIVE_EVM})`,
  solana: `a base58 32-byte address (native token: ${NATIVE_SOLANA})`,
  bitcoin: `"${NATIVE_BITCOIN}" (the native coin)`,
};
const WALLET_HINT: Partial<Record<ChainFamily, string>> = {
  evm: 'a 0x-prefixed 20-byte hex address',
  solana: 'a base58 32-byte address',
  bitcoin: 'a Bitcoin mainnet address',
};

/** Canonical form for storage and comparison: EVM hex lower-cased; base58 and bech32 are kept. */
export function normalizeAddress(family: ChainFamily, value: string): string {
  return family === 'evm' ? value.toLowerCase() : value;
}

export function parseAmount(name: string, value: string): bigint {
  if (!/^\d{1,78}$/.test(value)) {
    throw badInput(`${name} must be a positive integer amount in the token's smallest unit, got ${quoted(value)}`);
  }
  const amount = BigInt(value);
  if (amount <= 0n) throw badInput(`${name} must be greater than 0`);
  if (amount > UINT256_MAX) throw badInput(`${name} must fit in 256 bits (at most ${UINT256_MAX})`);
  return amount;
}

export function parseSlippage(value: number | null | undefined): number {
  if (value === undefined || value === null) return DEFAULT_SLIPPAGE;
  if (!Number.isFinite(value) || value <= 0 || value > MAX_SLIPPAGE) {
    throw badInput(`slippage must be a fraction greater than 0 and at most ${MAX_SLIPPAGE} (0.01 is 1%), got ${value}`);
  }
  return value;
}

export function parseOrder(value: string | null | undefined): RouteOrder {
  if (value === undefined || value === null || value === '') return 'CHEAPEST';
  const order = value.toUpperCase() as RouteOrder;
  if (!ORDERS.includes(order)) throw badInput(`order must be CHEAPEST or FASTEST, got ${quoted(value)}`);
  return order;
}

/** A comma list of bridge names, de-duplicated; [] when absent. */
export function parseBridgeList(name: string, value: string | null | undefined): string[] {
  if (value === undefined || value === null || value.trim() === '') return [];
  const names = value.split(',').map((n) => n.trim());
  const bad = names.find((n) => !BRIDGE_NAME.test(n));
  if (bad !== undefined) {
    throw badInput(
      `${name} must be a comma list of bridge names (letters, digits, - and _), got ${quoted(bad === '' ? value : bad)}`,
    );
  }
  // Upstream keys are case-sensitive (LI.FI's `stargateV2`): keep the spelling, drop case-blind repeats.
  const unique = names.filter((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i);
  if (unique.length > MAX_BRIDGES) throw badInput(`${name} names at most ${MAX_BRIDGES} bridges`);
  return unique;
}

export function parseMaxRoutes(value: number | null | undefined): number {
  if (value === undefined || value === null) return DEFAULT_MAX_ROUTES;
  if (!Number.isInteger(value) || value < 1 || value > MAX_ROUTES_LIMIT) {
    throw badInput(`maxRoutes must be a whole number from 1 to ${MAX_ROUTES_LIMIT}, got ${value}`);
  }
  return value;
}

/**
 * Checks a quote request and returns it with defaults applied. `isSupported` says whether the
 * catalogue bridges a chain; it runs after the syntax checks so a typo never costs a catalogue read.
 */
export async function parseQuoteInput(
  input: BridgeQuoteInput,
  isSupported: (caip2Id: string) => Promise<boolean>,
): Promise<QuoteRequest> {
  requireCaip2('fromChain', input.fromChain);
  requireCaip2('toChain', input.toChain);
  const tuning = parseTuning(input);
  const fromFamily = familyOf(input.fromChain);
  const toFamily = familyOf(input.toChain);
  if (!fromFamily || !(await isSupported(input.fromChain))) {
    throw badInput(`fromChain "${input.fromChain}" is not a supported bridge chain (see GET /partners/bridge/chains)`);
  }
  if (!toFamily || !(await isSupported(input.toChain))) {
    throw badInput(`toChain "${input.toChain}" is not a supported bridge chain (see GET /partners/bridge/chains)`);
  }
  if (!isTokenAddress(fromFamily, input.fromToken)) {
    throw badInput(
      `fromToken must be ${NATIVE_HINT[fromFamily]} on ${input.fromChain}, got ${quoted(input.fromToken)}`,
    );
  }
  if (!isTokenAddress(toFamily, input.toToken)) {
    throw badInput(`toToken must be ${NATIVE_HINT[toFamily]} on ${input.toChain}, got ${quoted(input.toToken)}`);
  }
  const fromAmount = parseAmount('fromAmount', input.fromAmount);
  if (!isWalletAddress(fromFamily, input.fromAddress)) {
    throw badInput(
      `fromAddress must be ${WALLET_HINT[fromFamily]} on ${input.fromChain}, got ${quoted(input.fromAddress)}`,
    );
  }
  let toAddress = input.toAddress ?? undefined;
  if (toAddress === undefined || toAddress === '') {
    // The same key only controls an address on the other chain when both use one address format.
    if (fromFamily !== toFamily) {
      throw badInput(
        `toAddress is required when fromChain (${input.fromChain}) and toChain (${input.toChain}) use different address formats`,
      );
    }
    toAddress = input.fromAddress;
  } else if (!isWalletAddress(toFamily, toAddress)) {
    throw badInput(`toAddress must be ${WALLET_HINT[toFamily]} on ${input.toChain}, got ${quoted(toAddress)}`);
  }
  return {
    fromChain: input.fromChain,
    toChain: input.toChain,
    fromToken: input.fromToken,
    toToken: input.toToken,
    fromAmount,
    fromAddress: input.fromAddress,
    toAddress,
    slippage: parseSlippage(input.slippage),
    ...tuning,
  };
}

/** The route-tuning parameters; checked before the catalogue is read, so a typo costs nothing. */
function parseTuning(
  input: BridgeQuoteInput,
): Pick<QuoteRequest, 'order' | 'allowBridges' | 'denyBridges' | 'maxRoutes'> {
  const allowBridges = parseBridgeList('allowBridges', input.allowBridges);
  const denyBridges = parseBridgeList('denyBridges', input.denyBridges);
  const both = allowBridges.find((b) => denyBridges.some((d) => d.toLowerCase() === b.toLowerCase()));
  if (both) throw badInput(`bridge "${both}" is both in allowBridges and denyBridges`);
  return { order: parseOrder(input.order), allowBridges, denyBridges, maxRoutes: parseMaxRoutes(input.maxRoutes) };
}

const TX_FORMATS: Record<ChainFamily, RegExp | undefined> = {
  evm: /^0x[0-9a-fA-F]{64}$/,
  // A Solana transaction id is the base58 of its first 64-byte signature: 86 to 88 characters.
  solana: /^[1-9A-HJ-NP-Za-km-z]{86,88}$/,
  bitcoin: /^[0-9a-fA-F]{64}$/,
  move: undefined,
};

/** Families whose transaction id format `txHash` has; [] means it is not a transaction hash at all. */
export function txHashFamilies(txHash: string): ChainFamily[] {
  return (Object.keys(TX_FORMATS) as ChainFamily[]).filter((f) => TX_FORMATS[f]?.test(txHash));
}

/** Throws a 400 unless `txHash` is a transaction id of a bridgeable chain family (of `family` when given). */
export function requireTxHash(txHash: string, family?: ChainFamily): void {
  const families = txHashFamilies(txHash);
  if (family ? !families.includes(family) : families.length === 0) {
    const expected = family
      ? (
          {
            evm: '0x followed by 64 hex digits',
            solana: 'a base58 transaction signature',
            bitcoin: '64 hex digits',
          } as Record<string, string>
        )[family]
      : '0x + 64 hex digits (EVM), 64 hex digits (Bitcoin) or a base58 signature (Solana)';
    throw badInput(`txHash must be a source-chain transaction hash: ${expected}, got ${quoted(txHash)}`);
  }
}

/** Canonical form of a transaction id: hex is case-insensitive, base58 is not. */
export function normalizeTxHash(txHash: string): string {
  return /^(0x)?[0-9a-fA-F]{64}$/.test(txHash) ? txHash.toLowerCase() : txHash;
}
