/**
 * Relay numbers its chains with EIP-155 ids for EVM chains and ids of its own for the others
 * (`@relayprotocol/relay-sdk` 7.0.3 chain constants); cipgate speaks CAIP-2.
 */
export const RELAY_SOLANA_CHAIN_ID = 792703809;
/** Relay's native-SOL currency address (the System Program id), as its quote API takes it. */
export const RELAY_NATIVE_SOL = '11111111111111111111111111111111';

const SOLANA_CAIP2 = 'solana:mainnet-beta';

/** CAIP-2 id of a Relay chain, or undefined for chain families cipgate does not serve (Bitcoin via Relay, Tron…). */
export function relayChainToCaip2(chainId: number, vmType?: string): string | undefined {
  if (chainId === RELAY_SOLANA_CHAIN_ID) return SOLANA_CAIP2;
  if (vmType !== undefined ? vmType === 'evm' : Number.isSafeInteger(chainId) && chainId > 0 && chainId < 2 ** 32) {
    return `eip155:${chainId}`;
  }
  return undefined;
}

/** Relay chain id for a CAIP-2 id, or undefined when Relay cannot be asked about that chain. */
export function caip2ToRelayChain(caip2Id: string): number | undefined {
  if (caip2Id === SOLANA_CAIP2) return RELAY_SOLANA_CHAIN_ID;
  const m = /^eip155:([1-9]\d{0,15})$/.exec(caip2Id);
  return m ? Number(m[1]) : undefined;
}
