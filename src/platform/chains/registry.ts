/**
 * The chains cipgate knows by CAIP-2 id: one table that identity (chain name and symbol of a
 * multichain address), bridge (catalogue seed, explorer links) and resolution (Movement networks)
 * all read, so a chain is described once.
 */
export type ChainFamily = 'evm' | 'solana' | 'bitcoin' | 'move';

export interface KnownChain {
  caip2Id: string;
  name: string;
  /** Symbol of the native token. */
  nativeToken: string;
  nativeDecimals: number;
  family: ChainFamily;
  /** EVM chain id, for transaction data and viem clients. */
  chainId?: number;
  /** SLIP-44 / ENSIP-11 coin type under which ENS stores an address for this chain. */
  coinType?: number;
  logoURI: string;
  /** Transaction page of the chain's public explorer; `{hash}` is replaced. */
  txExplorer: string;
  /** Listed by the bridge catalogue (the spec's chains). */
  bridgeable: boolean;
}

const ICONS = 'https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/chains';

/** ENSIP-11: an EVM chain's coin type is its chain id with the top bit set; Ethereum keeps SLIP-44's 60. */
export const evmCoinType = (chainId: number): number => (chainId === 1 ? 60 : (0x80000000 | chainId) >>> 0);

const evm = (chainId: number, name: string, nativeToken: string, icon: string, explorer: string): KnownChain => ({
  caip2Id: `eip155:${chainId}`,
  name,
  nativeToken,
  nativeDecimals: 18,
  family: 'evm',
  chainId,
  coinType: evmCoinType(chainId),
  logoURI: `${ICONS}/${icon}.svg`,
  txExplorer: `${explorer}/tx/{hash}`,
  bridgeable: true,
});

export const KNOWN_CHAINS: readonly KnownChain[] = [
  evm(1, 'Ethereum', 'ETH', 'ethereum', 'https://etherscan.io'),
  evm(137, 'Polygon', 'POL', 'polygon', 'https://polygonscan.com'),
  evm(42161, 'Arbitrum', 'ETH', 'arbitrum', 'https://arbiscan.io'),
  evm(8453, 'Base', 'ETH', 'base', 'https://basescan.org'),
  evm(10, 'Optimism', 'ETH', 'optimism', 'https://optimistic.etherscan.io'),
  evm(56, 'BNB Smart Chain', 'BNB', 'bsc', 'https://bscscan.com'),
  evm(43114, 'Avalanche', 'AVAX', 'avalanche', 'https://snowtrace.io'),
  {
    caip2Id: 'solana:mainnet-beta',
    name: 'Solana',
    nativeToken: 'SOL',
    nativeDecimals: 9,
    family: 'solana',
    coinType: 501,
    logoURI: `${ICONS}/solana.svg`,
    txExplorer: 'https://solscan.io/tx/{hash}',
    bridgeable: true,
  },
  {
    caip2Id: 'bip122:000000000019d6689c085ae165831e93',
    name: 'Bitcoin',
    nativeToken: 'BTC',
    nativeDecimals: 8,
    family: 'bitcoin',
    coinType: 0,
    logoURI: `${ICONS}/bitcoin.svg`,
    txExplorer: 'https://mempool.space/tx/{hash}',
    bridgeable: true,
  },
  {
    caip2Id: 'move-mvmt:126',
    name: 'Movement',
    nativeToken: 'MOVE',
    nativeDecimals: 8,
    family: 'move',
    logoURI: 'https://raw.githubusercontent.com/movementlabsxyz/movement-brand-assets/main/logo/movement-logo.svg',
    txExplorer: 'https://explorer.movementnetwork.xyz/txn/{hash}?network=mainnet',
    bridgeable: false,
  },
  {
    caip2Id: 'move-mvmt:177',
    name: 'Movement Testnet',
    nativeToken: 'MOVE',
    nativeDecimals: 8,
    family: 'move',
    logoURI: 'https://raw.githubusercontent.com/movementlabsxyz/movement-brand-assets/main/logo/movement-logo.svg',
    txExplorer: 'https://explorer.movementnetwork.xyz/txn/{hash}?network=testnet',
    bridgeable: false,
  },
];

const byId = new Map(KNOWN_CHAINS.map((c) => [c.caip2Id, c]));
const byChainId = new Map(KNOWN_CHAINS.filter((c) => c.chainId !== undefined).map((c) => [c.chainId as number, c]));
const byCoinType = new Map(KNOWN_CHAINS.filter((c) => c.coinType !== undefined).map((c) => [c.coinType as number, c]));

export const chainById = (caip2Id: string): KnownChain | undefined => byId.get(caip2Id);
export const chainByEvmId = (chainId: number): KnownChain | undefined => byChainId.get(chainId);
export const chainByCoinType = (coinType: number): KnownChain | undefined => byCoinType.get(coinType);

/** Native token address as the spec writes it: the zero address on EVM chains, 32 `1`s on Solana. */
export const NATIVE_EVM = '0x0000000000000000000000000000000000000000';
export const NATIVE_SOLANA = '11111111111111111111111111111111';

export function explorerTxLink(caip2Id: string, hash: string): string | undefined {
  return byId.get(caip2Id)?.txExplorer.replace('{hash}', hash);
}
