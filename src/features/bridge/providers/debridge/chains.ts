/**
 * deBridge names chains by internal ids: EIP-155 ids for the long-supported EVM chains, 7565164 for
 * Solana, and ids from 100000000 up for chains added later (docs.debridge.com "Supported Chains",
 * Chain ID vs Internal Chain ID). cipgate speaks CAIP-2.
 */
export const DEBRIDGE_SOLANA_CHAIN_ID = 7565164;

const SOLANA_CAIP2 = 'solana:mainnet-beta';

/** EIP-155 id → deBridge internal id, where they differ (EVM chains of the documented table). */
const INTERNAL_BY_EVM: ReadonlyMap<number, number> = new Map([
  [100, 100000002], // Gnosis
  [747, 100000009], // Flow EVM
  [1514, 100000013], // Story
  [25, 100000019], // Cronos
  [60808, 100000021], // BOB
  [999, 100000022], // HyperEVM
  [5000, 100000023], // Mantle
  [1329, 100000027], // Sei
  [1776, 100000029], // Injective EVM
  [143, 100000030], // Monad
  [4326, 100000031], // MegaETH
  [32769, 100000008], // Zilliqa
]);
const EVM_BY_INTERNAL: ReadonlyMap<number, number> = new Map([...INTERNAL_BY_EVM].map(([evm, id]) => [id, evm]));

/** First internal id deBridge assigns instead of an EIP-155 id. */
const FIRST_INTERNAL_ID = 100_000_000;

/**
 * CAIP-2 id of a deBridge chain, or undefined for chains cipgate does not serve (TRON) or whose
 * internal id the table does not know (it could not be quoted by its EIP-155 id either).
 */
export function debridgeChainToCaip2(chainId: number): string | undefined {
  if (chainId === DEBRIDGE_SOLANA_CHAIN_ID) return SOLANA_CAIP2;
  const evm = chainId < FIRST_INTERNAL_ID ? chainId : EVM_BY_INTERNAL.get(chainId);
  return evm !== undefined && evm > 0 ? `eip155:${evm}` : undefined;
}

/** deBridge internal chain id for a CAIP-2 id, or undefined when deBridge cannot be asked about it. */
export function caip2ToDebridgeChain(caip2Id: string): number | undefined {
  if (caip2Id === SOLANA_CAIP2) return DEBRIDGE_SOLANA_CHAIN_ID;
  const m = /^eip155:([1-9]\d{0,15})$/.exec(caip2Id);
  if (!m) return undefined;
  const evm = Number(m[1]);
  return INTERNAL_BY_EVM.get(evm) ?? (evm < FIRST_INTERNAL_ID ? evm : undefined);
}
