import type { KnownChain } from '../../../../platform/chains/registry.js';

/**
 * Per-chain numbers of the sandbox fee and time model. They are plausible mid-2025 values, chosen to
 * make offline quotes look like real ones (an Ethereum deposit costs dollars, an L2 one fractions of
 * a cent), not measurements.
 *
 * Source-transaction cost is `gasLimit × gasPrice` in the native token's base units on every family:
 * gas × wei on EVM chains, signatures × lamports per signature (base fee plus a priority tip) on
 * Solana, virtual bytes × satoshis per vbyte on Bitcoin.
 */
export interface SandboxChainParams {
  /** Source gas price in native base units per gas unit (see above). */
  gasPrice: bigint;
  /** Gas of a deposit paying the native token. */
  nativeDepositGas: bigint;
  /** Gas of a deposit pulling a token (the approval is a separate, earlier transaction). */
  tokenDepositGas: bigint;
  /** Seconds the relayer waits for the deposit to be final enough on this chain as source. */
  finalitySeconds: number;
  /** Seconds to land the fill on this chain as destination. */
  fillSeconds: number;
  /** USD (decimal string) the relayer charges to pay for the fill transaction on this chain. */
  fillCostUSD: string;
}

const GWEI = 1_000_000_000n;

const BY_CHAIN: Record<string, SandboxChainParams> = {
  'eip155:1': {
    gasPrice: 5n * GWEI,
    nativeDepositGas: 90_000n,
    tokenDepositGas: 140_000n,
    finalitySeconds: 180,
    fillSeconds: 24,
    fillCostUSD: '1.20',
  },
  'eip155:137': {
    gasPrice: 40n * GWEI,
    nativeDepositGas: 90_000n,
    tokenDepositGas: 140_000n,
    finalitySeconds: 120,
    fillSeconds: 6,
    fillCostUSD: '0.01',
  },
  'eip155:42161': {
    gasPrice: GWEI / 100n,
    nativeDepositGas: 110_000n,
    tokenDepositGas: 170_000n,
    finalitySeconds: 60,
    fillSeconds: 2,
    fillCostUSD: '0.02',
  },
  'eip155:8453': {
    gasPrice: GWEI / 200n,
    nativeDepositGas: 90_000n,
    tokenDepositGas: 140_000n,
    finalitySeconds: 60,
    fillSeconds: 4,
    fillCostUSD: '0.02',
  },
  'eip155:10': {
    gasPrice: GWEI / 1000n,
    nativeDepositGas: 90_000n,
    tokenDepositGas: 140_000n,
    finalitySeconds: 60,
    fillSeconds: 4,
    fillCostUSD: '0.02',
  },
  'eip155:56': {
    gasPrice: GWEI,
    nativeDepositGas: 90_000n,
    tokenDepositGas: 140_000n,
    finalitySeconds: 45,
    fillSeconds: 6,
    fillCostUSD: '0.05',
  },
  'eip155:43114': {
    gasPrice: 2n * GWEI,
    nativeDepositGas: 90_000n,
    tokenDepositGas: 140_000n,
    finalitySeconds: 30,
    fillSeconds: 4,
    fillCostUSD: '0.05',
  },
  'solana:mainnet-beta': {
    gasPrice: 10_000n,
    nativeDepositGas: 1n,
    tokenDepositGas: 1n,
    finalitySeconds: 30,
    fillSeconds: 2,
    fillCostUSD: '0.01',
  },
  'bip122:000000000019d6689c085ae165831e93': {
    gasPrice: 5n,
    nativeDepositGas: 180n,
    tokenDepositGas: 180n,
    // Relayers wait for three confirmations on Bitcoin; its fills take a block too.
    finalitySeconds: 1800,
    fillSeconds: 600,
    fillCostUSD: '1.50',
  },
};

export const sandboxChainParams = (caip2Id: string): SandboxChainParams | undefined => BY_CHAIN[caip2Id];

/**
 * Numeric chain ids for `transactionData.chainId` and the deposit's `destinationChainId`. EVM chains
 * use their own; Solana and Bitcoin have none, so the sandbox uses the ids LI.FI assigns them, which
 * the spec's bridge resources mirror and which LI.FI-aware clients already recognise.
 */
export const LIFI_SOLANA_CHAIN_ID = 1151111081099710;
export const LIFI_BITCOIN_CHAIN_ID = 20000000000001;

export function numericChainId(chain: KnownChain): number | undefined {
  if (chain.chainId !== undefined) return chain.chainId;
  if (chain.family === 'solana') return LIFI_SOLANA_CHAIN_ID;
  if (chain.family === 'bitcoin') return LIFI_BITCOIN_CHAIN_ID;
  return undefined;
}
