import { createRequire } from 'node:module';

/** The fields of a Uniswap token-list entry the seed reads (https://tokenlists.org schema). */
export interface TokenListEntry {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoURI?: string;
}

/** Uniswap files Solana tokens under this pseudo chain id; the seed test uses it to cross-check mints. */
export const UNISWAP_SOLANA_CHAIN_ID = 501000101;

let cached: readonly TokenListEntry[] | undefined;

/**
 * Reads the token list straight from the installed package rather than from a copy in the repo, so
 * upgrading the package is the only step needed to refresh it. `createRequire` resolves it the same
 * way from `src/` under vitest and from `dist/` after `tsc`, which a relative JSON import would not.
 */
export function uniswapTokens(): readonly TokenListEntry[] {
  if (!cached) {
    const require = createRequire(import.meta.url);
    const list = require('@uniswap/default-token-list') as { tokens?: unknown };
    if (!Array.isArray(list.tokens)) throw new Error('@uniswap/default-token-list: no tokens array');
    cached = (list.tokens as TokenListEntry[]).filter(
      (t) =>
        Number.isInteger(t.chainId) &&
        typeof t.address === 'string' &&
        typeof t.symbol === 'string' &&
        typeof t.name === 'string' &&
        Number.isInteger(t.decimals),
    );
  }
  return cached;
}
