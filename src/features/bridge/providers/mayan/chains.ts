/**
 * Mayan names chains (`ethereum`, `solana`; the SDK's ChainName) in its quote API and numbers them by
 * their Wormhole chain id in its explorer API. cipgate speaks CAIP-2; these are the chains both can
 * express (Mayan also serves Sui, Aptos, TON, HyperCore…, which cipgate cannot bridge).
 */
export interface MayanChain {
  caip2Id: string;
  /** Name in Mayan's quote API and SDK. */
  name: string;
  /** Wormhole chain id, as Mayan's explorer reports `sourceChain` / `destChain`. */
  wormholeId: number;
  displayName: string;
  nativeToken: string;
  family: 'evm' | 'solana';
}

const chain = (c: Omit<MayanChain, 'family'>): MayanChain => ({
  ...c,
  family: c.caip2Id.startsWith('solana:') ? 'solana' : 'evm',
});

export const MAYAN_CHAINS: readonly MayanChain[] = [
  chain({ caip2Id: 'solana:mainnet-beta', name: 'solana', wormholeId: 1, displayName: 'Solana', nativeToken: 'SOL' }),
  chain({ caip2Id: 'eip155:1', name: 'ethereum', wormholeId: 2, displayName: 'Ethereum', nativeToken: 'ETH' }),
  chain({ caip2Id: 'eip155:56', name: 'bsc', wormholeId: 4, displayName: 'BNB Smart Chain', nativeToken: 'BNB' }),
  chain({ caip2Id: 'eip155:137', name: 'polygon', wormholeId: 5, displayName: 'Polygon', nativeToken: 'POL' }),
  chain({ caip2Id: 'eip155:43114', name: 'avalanche', wormholeId: 6, displayName: 'Avalanche', nativeToken: 'AVAX' }),
  chain({ caip2Id: 'eip155:42161', name: 'arbitrum', wormholeId: 23, displayName: 'Arbitrum', nativeToken: 'ETH' }),
  chain({ caip2Id: 'eip155:10', name: 'optimism', wormholeId: 24, displayName: 'Optimism', nativeToken: 'ETH' }),
  chain({ caip2Id: 'eip155:8453', name: 'base', wormholeId: 30, displayName: 'Base', nativeToken: 'ETH' }),
  chain({ caip2Id: 'eip155:59144', name: 'linea', wormholeId: 38, displayName: 'Linea', nativeToken: 'ETH' }),
  chain({ caip2Id: 'eip155:130', name: 'unichain', wormholeId: 44, displayName: 'Unichain', nativeToken: 'ETH' }),
];

const BY_CAIP2 = new Map(MAYAN_CHAINS.map((c) => [c.caip2Id, c]));
const BY_NAME = new Map(MAYAN_CHAINS.map((c) => [c.name, c]));
const BY_WORMHOLE = new Map(MAYAN_CHAINS.map((c) => [c.wormholeId, c]));

export const mayanChainByCaip2 = (caip2Id: string): MayanChain | undefined => BY_CAIP2.get(caip2Id);
export const mayanChainByName = (name: string): MayanChain | undefined => BY_NAME.get(name);
export const mayanChainByWormholeId = (id: unknown): MayanChain | undefined => BY_WORMHOLE.get(Number(id));
