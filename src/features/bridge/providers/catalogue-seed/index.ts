/**
 * Offline catalogue data for the spec's bridge chains: the chains of the shared registry, their
 * native tokens, real ERC-20s from `@uniswap/default-token-list`, a few real SPL tokens, and a
 * hand-entered USD price snapshot.
 *
 * The chains and tokens are facts (addresses, decimals, symbols) and may be served to anyone. The
 * price snapshot is demo data: only the sandbox quotes with it, so its USD figures reach sandbox
 * partners only, inside routes labelled `bridgeProvider: "sandbox"`. Seed tokens carry no `priceUSD`.
 */
import {
  chainById,
  KNOWN_CHAINS,
  type KnownChain,
  NATIVE_EVM,
  NATIVE_SOLANA,
} from '../../../../platform/chains/registry.js';
import type { BridgeChain, BridgeToken } from '../types.js';
import snapshot from './prices.json' with { type: 'json' };
import { SOLANA_SPL_TOKENS } from './solana-tokens.js';
import { uniswapTokens } from './uniswap-list.js';

/**
 * Bitcoin has no token contracts, so its only token needs a conventional address: `bitcoin`, the
 * identifier LI.FI uses for native BTC, keeps the catalogue compatible with LI.FI-style clients.
 */
export const NATIVE_BITCOIN = 'bitcoin';

export interface PriceSnapshot {
  takenAt: string;
  note: string;
  /** Asset symbol → USD decimal string. */
  prices: Record<string, string>;
  /** Wrapped or bridged symbol → symbol of the asset it represents (WETH → ETH). */
  aliases: Record<string, string>;
}

export const PRICE_SNAPSHOT: PriceSnapshot = snapshot;

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The asset a token symbol stands for: bridged and wrapped forms share their underlying asset's
 * price, and the sandbox fee model treats a transfer between them as a plain bridge, not a swap.
 */
export function assetOf(symbol: string): string {
  return PRICE_SNAPSHOT.aliases[symbol] ?? symbol;
}

/** Snapshot USD price of a token symbol as a decimal string, or undefined when the snapshot has none. */
export function priceOf(symbol: string): string | undefined {
  const price = PRICE_SNAPSHOT.prices[assetOf(symbol)];
  return price !== undefined && DECIMAL.test(price) && Number(price) > 0 ? price : undefined;
}

const NATIVE_NAMES: Record<string, string> = {
  ETH: 'Ether',
  POL: 'Polygon Ecosystem Token',
  BNB: 'BNB',
  AVAX: 'Avalanche',
  SOL: 'Solana',
  BTC: 'Bitcoin',
};

/** The address the spec gives a chain's native token. */
export function nativeTokenAddress(chain: KnownChain): string | undefined {
  switch (chain.family) {
    case 'evm':
      return NATIVE_EVM;
    case 'solana':
      return NATIVE_SOLANA;
    case 'bitcoin':
      return NATIVE_BITCOIN;
    default:
      return undefined;
  }
}

const bridgeable = (): KnownChain[] => KNOWN_CHAINS.filter((c) => c.bridgeable);

export function seedChains(): BridgeChain[] {
  return bridgeable().map((c) => ({
    caip2Id: c.caip2Id,
    name: c.name,
    nativeToken: c.nativeToken,
    logoURI: c.logoURI,
    isBridgeSupported: true,
  }));
}

function nativeToken(chain: KnownChain, address: string): BridgeToken {
  // The native asset's logo is the logo of the first chain that has it as native (ETH → Ethereum's),
  // so Arbitrum's ETH does not show the Arbitrum logo.
  const home = bridgeable().find((c) => c.nativeToken === chain.nativeToken) ?? chain;
  return {
    address,
    symbol: chain.nativeToken,
    name: NATIVE_NAMES[chain.nativeToken] ?? chain.nativeToken,
    decimals: chain.nativeDecimals,
    logoURI: home.logoURI,
  };
}

// EVM addresses are hex and compare case-insensitively (checksums are only a casing); base58 is
// case-sensitive.
const addressKey = (chain: KnownChain, address: string): string =>
  chain.family === 'evm' ? address.toLowerCase() : address;

const tokenCache = new Map<string, readonly BridgeToken[]>();

function buildTokens(chain: KnownChain): BridgeToken[] {
  const native = nativeTokenAddress(chain);
  if (native === undefined) return [];
  const tokens = [nativeToken(chain, native)];
  const seen = new Set([addressKey(chain, native)]);
  const add = (t: BridgeToken) => {
    const key = addressKey(chain, t.address);
    if (seen.has(key)) return;
    seen.add(key);
    tokens.push({ ...t });
  };
  if (chain.family === 'evm') {
    for (const t of uniswapTokens()) {
      if (t.chainId !== chain.chainId) continue;
      add({ address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals, logoURI: t.logoURI ?? '' });
    }
  } else if (chain.family === 'solana') {
    for (const t of SOLANA_SPL_TOKENS) add(t);
  }
  return tokens;
}

function cachedTokens(caip2Id: string): readonly BridgeToken[] {
  const chain = chainById(caip2Id);
  if (!chain?.bridgeable) return [];
  let tokens = tokenCache.get(caip2Id);
  if (!tokens) {
    tokens = buildTokens(chain);
    tokenCache.set(caip2Id, tokens);
  }
  return tokens;
}

/** Tokens of a bridgeable chain, native token first; [] for any other id. Callers get their own copies. */
export function seedTokens(caip2Id: string): BridgeToken[] {
  return cachedTokens(caip2Id).map((t) => ({ ...t }));
}

/** A listed token of the chain by address (EVM addresses case-insensitively), or undefined. */
export function findSeedToken(caip2Id: string, address: string): BridgeToken | undefined {
  const chain = chainById(caip2Id);
  if (!chain) return undefined;
  const wanted = addressKey(chain, address);
  const token = cachedTokens(caip2Id).find((t) => addressKey(chain, t.address) === wanted);
  return token && { ...token };
}
