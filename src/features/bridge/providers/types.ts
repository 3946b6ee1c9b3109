import type { ProviderStatus } from '../../../platform/upstream/status.js';

export interface BridgeChain {
  caip2Id: string;
  name: string;
  nativeToken: string;
  logoURI: string;
  isBridgeSupported: boolean;
}

export interface BridgeToken {
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoURI: string;
  /** Decimal string, e.g. "3120.55", as a live upstream reports it; absent when none prices the token. */
  priceUSD?: string;
}

export interface QuoteRequest {
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  /** Base units. */
  fromAmount: bigint;
  fromAddress: string;
  toAddress: string;
  /** Fraction in (0, 0.5]. */
  slippage: number;
  /** Ranking: most received net of costs (CHEAPEST) or quickest (FASTEST). */
  order: RouteOrder;
  /** Bridge names a route may / may not use (compared case-blind); empty = no restriction. */
  allowBridges: string[];
  denyBridges: string[];
  /** Most routes answered in all. */
  maxRoutes: number;
}

export type RouteOrder = 'CHEAPEST' | 'FASTEST';

/** Operator settings passed to upstreams that support them. */
export interface IntegratorSettings {
  /** Integrator id / name (BRIDGE_INTEGRATOR). */
  integrator?: string | undefined;
  /** Fee fraction in [0, 1) (BRIDGE_FEE). */
  fee?: number | undefined;
}

export interface TransactionData {
  from: string;
  to: string;
  data: string;
  value: string;
  gasLimit: string;
  gasPrice: string;
  chainId: number;
}

/** A route as a provider proposes it; cipgate adds the route id when it stores the quote. */
export interface ProviderRoute {
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  fromAmount: string;
  toAmount: string;
  toAmountMin: string;
  gasCostUSD: string;
  feeCostUSD: string;
  fromAmountUSD: string;
  toAmountUSD: string;
  /** The bridge that moves the funds (LI.FI's step `tool`, e.g. `stargate`). */
  bridgeProvider: string;
  /** The cipgate provider that quoted the route (`lifi`, `across`, `relay`, `debridge`, `sandbox`). */
  aggregator: string;
  estimatedTimeSeconds: number;
  transactionData: TransactionData;
  /** Spender an ERC-20 source must allow; absent for native-token sources. */
  approvalAddress?: string;
  /** `approve(approvalAddress, fromAmount)` on the source token; absent when no allowance is needed. */
  approvalTransaction?: TransactionData;
  /** Base64 serialised transaction, for Solana sources where the upstream gives one. */
  serializedTransaction?: string;
  /** Seconds since the epoch after which the route is refused. */
  expiresAt?: number;
  /** Provider-specific data needed later to ask for the transfer's status (kept server-side only). */
  tracking?: Record<string, unknown>;
}

export type BridgeStatusValue = 'NOT_FOUND' | 'PENDING' | 'DONE' | 'FAILED';

export interface TxInfo {
  txHash: string;
  txLink: string;
  chainId: number;
  gasUsed: string;
  gasPrice: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export interface ProviderStatusAnswer {
  status: BridgeStatusValue;
  /** Provider's finer state (e.g. LI.FI's WAIT_DESTINATION_TRANSACTION), for the message. */
  substatus?: string;
  /** The provider (aggregator) that answered. */
  bridge: string;
  /** The bridge that moves the funds, when the provider names it (LI.FI's `tool`). */
  tool?: string;
  substatusMessage?: string;
  fromTx?: TxInfo;
  toTx?: TxInfo;
  message?: string;
}

export interface StatusQuery {
  txHash: string;
  /** Known when the transfer was quoted through cipgate. */
  fromChain?: string;
  toChain?: string;
  tracking?: Record<string, unknown>;
  /** A bridge name (not a provider name) the caller hinted, e.g. `stargate`. */
  bridgeTool?: string;
  signal?: AbortSignal;
}

/**
 * One bridge upstream. Implementations live in one folder each (`providers/bridge/<name>/`),
 * aimed at a configurable base URL. Upstream failures throw `UpstreamError`.
 */
export interface BridgeProvider {
  /** Stable name, used as `bridgeProvider` and as the status call's `bridge` hint. */
  readonly name: string;
  readonly status: ProviderStatus;
  chains(signal?: AbortSignal): Promise<BridgeChain[]>;
  tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]>;
  /** Routes for the request; [] when the provider has none. */
  quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]>;
  /** Status of a transfer by source transaction hash; null when the provider does not know it. */
  transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null>;
}
