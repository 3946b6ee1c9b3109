/**
 * LI.FI numbers every chain, EVM or not (`@lifi/types` ChainId). cipgate speaks CAIP-2, so the two
 * non-EVM chains the spec lists need an explicit mapping; EVM chains map through their chain id.
 */
export const LIFI_SOLANA_CHAIN_ID = 1151111081099710;
export const LIFI_BITCOIN_CHAIN_ID = 20000000000001;

const SOLANA_CAIP2 = 'solana:mainnet-beta';
const BITCOIN_CAIP2 = 'bip122:000000000019d6689c085ae165831e93';

const NON_EVM: ReadonlyMap<number, string> = new Map([
  [LIFI_SOLANA_CHAIN_ID, SOLANA_CAIP2],
  [LIFI_BITCOIN_CHAIN_ID, BITCOIN_CAIP2],
]);
const NON_EVM_BY_CAIP2: ReadonlyMap<string, number> = new Map([...NON_EVM].map(([id, caip2]) => [caip2, id]));

/** CAIP-2 id of a LI.FI chain, or undefined for chain families cipgate does not serve (Sui, Tron…). */
export function lifiChainToCaip2(chainId: number, chainType?: string): string | undefined {
  const nonEvm = NON_EVM.get(chainId);
  if (nonEvm) return nonEvm;
  // LI.FI gives non-EVM chains ids far above any EVM chain id; without a chainType, trust the range
  // EIP-155 ids live in (they must fit a uint64 and in practice stay well under 2^53 / 1000).
  if (chainType !== undefined ? chainType === 'EVM' : chainId < 1_000_000_000_000) return `eip155:${chainId}`;
  return undefined;
}

/** LI.FI chain id for a CAIP-2 id, or undefined when LI.FI cannot be asked about that chain. */
export function caip2ToLifiChain(caip2Id: string): number | undefined {
  const nonEvm = NON_EVM_BY_CAIP2.get(caip2Id);
  if (nonEvm !== undefined) return nonEvm;
  const m = /^eip155:([1-9]\d{0,15})$/.exec(caip2Id);
  return m ? Number(m[1]) : undefined;
}
