import { describe, expect, it } from 'vitest';
import { KNOWN_CHAINS, NATIVE_EVM, NATIVE_SOLANA } from '../../../../platform/chains/registry.js';
import { SPEC_CHAINS } from '../../bridge.test-helper.js';
import { findSeedToken, NATIVE_BITCOIN, PRICE_SNAPSHOT, priceOf, seedChains, seedTokens } from './index.js';
import { SOLANA_SPL_TOKENS } from './solana-tokens.js';
import { UNISWAP_SOLANA_CHAIN_ID, uniswapTokens } from './uniswap-list.js';

describe('catalogue seed', () => {
  it('lists exactly the spec chains, all bridgeable, with their native symbols', () => {
    const chains = seedChains();
    expect(chains.map((c) => c.caip2Id).sort()).toEqual([...SPEC_CHAINS].sort());
    for (const c of chains) {
      expect(c.isBridgeSupported).toBe(true);
      expect(c.logoURI).toMatch(/^https:\/\//);
      expect(c.nativeToken).toBe(KNOWN_CHAINS.find((k) => k.caip2Id === c.caip2Id)?.nativeToken);
    }
  });

  it('puts the native token first with the spec address on every chain', () => {
    const expected: Record<string, [string, string, number]> = {
      'eip155:1': [NATIVE_EVM, 'ETH', 18],
      'eip155:137': [NATIVE_EVM, 'POL', 18],
      'eip155:56': [NATIVE_EVM, 'BNB', 18],
      'eip155:43114': [NATIVE_EVM, 'AVAX', 18],
      'solana:mainnet-beta': ['1'.repeat(32), 'SOL', 9],
      'bip122:000000000019d6689c085ae165831e93': [NATIVE_BITCOIN, 'BTC', 8],
    };
    expect(NATIVE_EVM).toBe(`0x${'0'.repeat(40)}`);
    expect(NATIVE_SOLANA).toBe('1'.repeat(32));
    for (const id of SPEC_CHAINS) {
      const [native] = seedTokens(id);
      expect(native, id).toBeDefined();
      const want = expected[id];
      if (want) expect([native?.address, native?.symbol, native?.decimals]).toEqual(want);
      else expect(native?.address).toBe(NATIVE_EVM);
      expect(priceOf(native?.symbol ?? ''), id).toMatch(/^\d+\.\d+$/);
    }
  });

  it('carries real ERC-20s: USDC on Ethereum has 6 decimals at its real address, and BSC USDC has 18', () => {
    const usdc = findSeedToken('eip155:1', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
    expect(usdc).toMatchObject({
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      symbol: 'USDC',
      decimals: 6,
    });
    expect(findSeedToken('eip155:1', '0x6B175474E89094C44Da98b954EedeAC495271d0F')).toMatchObject({
      symbol: 'DAI',
      decimals: 18,
    });
    expect(findSeedToken('eip155:56', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d')).toMatchObject({
      symbol: 'USDC',
      decimals: 18,
    });
    for (const id of SPEC_CHAINS.filter((c) => c.startsWith('eip155:'))) {
      const tokens = seedTokens(id);
      expect(tokens.length, id).toBeGreaterThan(20);
      for (const t of tokens) expect(t.address, id).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const keys = tokens.map((t) => t.address.toLowerCase());
      expect(new Set(keys).size, `${id} has duplicate addresses`).toBe(keys.length);
    }
  });

  it('takes every EVM token from the installed Uniswap list (nothing invented)', () => {
    const listed = new Set(uniswapTokens().map((t) => `${t.chainId}:${t.address.toLowerCase()}:${t.decimals}`));
    for (const chain of KNOWN_CHAINS.filter((c) => c.family === 'evm' && c.bridgeable)) {
      for (const t of seedTokens(chain.caip2Id).slice(1)) {
        expect(listed.has(`${chain.chainId}:${t.address.toLowerCase()}:${t.decimals}`), t.symbol).toBe(true);
      }
    }
  });

  it('lists the hand-written Solana SPL tokens, whose mints and decimals match the Uniswap list', () => {
    const tokens = seedTokens('solana:mainnet-beta');
    expect(tokens.slice(1).map((t) => t.address)).toEqual(SOLANA_SPL_TOKENS.map((t) => t.address));
    expect(findSeedToken('solana:mainnet-beta', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toMatchObject({
      symbol: 'USDC',
      decimals: 6,
    });
    expect(findSeedToken('solana:mainnet-beta', 'So11111111111111111111111111111111111111112')).toMatchObject({
      symbol: 'wSOL',
      decimals: 9,
    });
    expect(priceOf('wSOL')).toBe(PRICE_SNAPSHOT.prices.SOL);
    // base58 is case-sensitive: a re-cased mint is a different (non-listed) address.
    expect(findSeedToken('solana:mainnet-beta', 'epjfwdd5aufqssqem2qn1xzybapc8g4wegGkzwytdt1v')).toBeUndefined();
    const uniswapSolana = new Map(
      uniswapTokens()
        .filter((t) => t.chainId === UNISWAP_SOLANA_CHAIN_ID)
        .map((t) => [t.address, t.decimals]),
    );
    for (const t of SOLANA_SPL_TOKENS) {
      expect(t.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(uniswapSolana.get(t.address), t.symbol).toBe(t.decimals);
    }
  });

  it('has only native BTC on Bitcoin, and nothing for unknown or non-bridgeable chains', () => {
    expect(seedTokens('bip122:000000000019d6689c085ae165831e93').map((t) => t.symbol)).toEqual(['BTC']);
    expect(seedTokens('eip155:999999')).toEqual([]);
    expect(seedTokens('move-mvmt:126')).toEqual([]);
  });

  it('prices from the snapshot through aliases for the sandbox, and never puts a price on a seed token', () => {
    expect(PRICE_SNAPSHOT.takenAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(PRICE_SNAPSHOT.note).toMatch(/snapshot/i);
    for (const price of Object.values(PRICE_SNAPSHOT.prices)) expect(price).toMatch(/^\d+\.\d{2,}$/);
    for (const target of Object.values(PRICE_SNAPSHOT.aliases)) expect(PRICE_SNAPSHOT.prices[target]).toBeDefined();
    expect(priceOf('WETH')).toBe(PRICE_SNAPSHOT.prices.ETH);
    expect(priceOf('USDC.e')).toBe(PRICE_SNAPSHOT.prices.USDC);
    expect(priceOf('JitoSOL')).toBeUndefined();
    expect(findSeedToken('solana:mainnet-beta', 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn')).toBeDefined();
    const weth = findSeedToken('eip155:8453', '0x4200000000000000000000000000000000000006');
    expect(weth?.symbol).toBe('WETH');
    // The snapshot is demo data: it prices sandbox quotes and is never listed as a token's price.
    for (const id of SPEC_CHAINS)
      for (const t of seedTokens(id)) expect(t, `${id} ${t.symbol}`).not.toHaveProperty('priceUSD');
  });

  it('hands out copies, so a caller cannot corrupt the cache', () => {
    const first = seedTokens('eip155:1');
    (first[0] as { symbol: string }).symbol = 'XXX';
    expect(seedTokens('eip155:1')[0]?.symbol).toBe('ETH');
  });
});
