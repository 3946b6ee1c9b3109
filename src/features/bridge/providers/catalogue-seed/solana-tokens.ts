import type { BridgeToken } from '../types.js';

/**
 * SPL tokens listed on `solana:mainnet-beta`, written by hand because the catalogue should only offer
 * a few liquid mints there, not the long tail the Uniswap list carries. Mints and decimals are the
 * real ones (checked against `@uniswap/default-token-list`, which files Solana under chain id
 * 501000101, by the seed test). No `priceUSD`: the seed states facts only.
 */
export const SOLANA_SPL_TOKENS: readonly BridgeToken[] = [
  {
    // Wrapped SOL: the SPL form of native SOL, so it is a different address from the native token.
    address: 'So11111111111111111111111111111111111111112',
    symbol: 'wSOL',
    name: 'Wrapped SOL',
    decimals: 9,
    logoURI: 'https://coin-images.coingecko.com/coins/images/21629/large/solana.jpg?1696520989',
  },
  {
    address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    logoURI: 'https://coin-images.coingecko.com/coins/images/6319/large/usdc.png?1696506694',
  },
  {
    address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
    symbol: 'USDT',
    name: 'Tether USD',
    decimals: 6,
    logoURI: 'https://coin-images.coingecko.com/coins/images/325/large/Tether.png?1696501661',
  },
  {
    // Portal (Wormhole) bridged assets keep 8 decimals on Solana, unlike their 18-decimal originals.
    address: '7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs',
    symbol: 'WETH',
    name: 'Wrapped Ether (Wormhole)',
    decimals: 8,
    logoURI: 'https://coin-images.coingecko.com/coins/images/22990/large/ETH_wh_small.png?1696522286',
  },
  {
    address: '5XZw2LKTyrfvfiskJ78AMpackRjPcyCif1WhUsPDuVqQ',
    symbol: 'WBTC',
    name: 'Wrapped Bitcoin (Wormhole)',
    decimals: 8,
    logoURI: 'https://coin-images.coingecko.com/coins/images/7598/large/wrapped_bitcoin_wbtc.png?1696507857',
  },
  {
    address: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
    symbol: 'JUP',
    name: 'Jupiter',
    decimals: 6,
    logoURI: 'https://coin-images.coingecko.com/coins/images/34188/large/jup.png?1704266489',
  },
  {
    address: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
    symbol: 'BONK',
    name: 'Bonk',
    decimals: 5,
    logoURI: 'https://coin-images.coingecko.com/coins/images/28600/large/bonk.jpg?1696527587',
  },
  {
    address: 'jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL',
    symbol: 'JTO',
    name: 'Jito',
    decimals: 9,
    logoURI: 'https://coin-images.coingecko.com/coins/images/33228/large/jto.png?1701137022',
  },
  {
    address: 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3',
    symbol: 'PYTH',
    name: 'Pyth Network',
    decimals: 6,
    logoURI: 'https://coin-images.coingecko.com/coins/images/31924/large/pyth.png?1701245725',
  },
  {
    address: '4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R',
    symbol: 'RAY',
    name: 'Raydium',
    decimals: 6,
    logoURI: 'https://coin-images.coingecko.com/coins/images/13928/large/PSigc4ie_400x400.jpg?1696513668',
  },
  {
    address: 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn',
    symbol: 'JitoSOL',
    name: 'Jito Staked SOL',
    decimals: 9,
    logoURI: 'https://coin-images.coingecko.com/coins/images/28046/large/JitoSOL-200.png?1696527060',
  },
];
