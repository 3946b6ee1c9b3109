import * as AbiFunction from 'ox/AbiFunction';
import * as Address from 'ox/Address';
import { explorerTxLink, NATIVE_EVM } from '../../../../platform/chains/registry.js';
import {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  sumDecimals,
  toDecimalString,
  toIntegerString,
  UpstreamHttpError,
} from '../../../../platform/upstream/index.js';
import { disabled, enabled, type ProviderStatus, UpstreamError } from '../../../../platform/upstream/status.js';
import { ERC20_APPROVE, isNativeEvm } from '../../approval.js';
import { type SolanaInstructionWire, transactionFromInstructions } from '../solana-transaction.js';
import type {
  BridgeChain,
  BridgeProvider,
  BridgeStatusValue,
  BridgeToken,
  IntegratorSettings,
  ProviderRoute,
  ProviderStatusAnswer,
  QuoteRequest,
  StatusQuery,
  TransactionData,
  TxInfo,
} from '../types.js';
import { caip2ToRelayChain, RELAY_SOLANA_CHAIN_ID, relayChainToCaip2 } from './chains.js';

export const RELAY_DEFAULT_BASE_URL = 'https://api.relay.link';
const NAME = 'relay';

export interface RelayProviderOptions {
  /** Defaults to Relay's public API. */
  baseUrl?: string | undefined;
  /** Sent as `x-api-key`; Relay works without one, at lower rate limits. */
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  maxBodyBytes?: number | undefined;
  enabled: boolean;
  /** BRIDGE_INTEGRATOR is sent as `referrer`; BRIDGE_FEE as an app fee when a recipient is set. */
  integrator?: IntegratorSettings;
  /** EVM address credited with the app fee (RELAY_APP_FEE_RECIPIENT). */
  appFeeRecipient?: string | undefined;
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep'>;
}

/** Wire shapes after `@relayprotocol/relay-sdk` 7.0.3 `_types/src/types/api.d.ts`; only what we read. */
interface RelayCurrency {
  chainId?: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  metadata?: { logoURI?: string; verified?: boolean; isNative?: boolean };
}

interface RelayChain {
  id: number;
  name: string;
  displayName?: string;
  vmType?: string;
  disabled?: boolean;
  depositEnabled?: boolean;
  iconUrl?: string;
  logoUrl?: string;
  currency?: { symbol?: string };
}

interface RelayAmount {
  currency?: RelayCurrency;
  amount?: string;
  amountUsd?: string;
  minimumAmount?: string;
}

interface RelayEvmTx {
  from?: string;
  to?: string;
  data?: string;
  value?: string;
  chainId?: number;
  gas?: string;
  maxFeePerGas?: string;
  gasPrice?: string;
}

interface RelaySolanaTx {
  instructions?: SolanaInstructionWire[];
  addressLookupTableAddresses?: string[];
}

interface RelayStep {
  id: string;
  kind: 'transaction' | 'signature' | string;
  requestId?: string;
  items?: { status?: string; data?: RelayEvmTx & RelaySolanaTx }[];
}

interface RelayQuote {
  steps?: RelayStep[];
  fees?: { gas?: RelayAmount; relayer?: RelayAmount; app?: RelayAmount };
  details?: { currencyIn?: RelayAmount; currencyOut?: RelayAmount; timeEstimate?: number };
}

/** GET /intents/status/v3 answer. */
interface RelayIntentStatus {
  status?: string;
  details?: string;
  inTxHashes?: string[];
  txHashes?: string[];
  updatedAt?: number;
  originChainId?: number;
  destinationChainId?: number;
}

interface RelayRequestTx {
  hash?: string;
  chainId?: number;
  timestamp?: number;
}

/** GET /requests/v2 element. */
interface RelayRequest {
  id?: string;
  status?: string;
  data?: { failReason?: string; inTxs?: RelayRequestTx[]; outTxs?: RelayRequestTx[] };
}

/** Relay quote error codes that mean "no route for this transfer" (docs.relay.link, Handling Quote Errors). */
const NO_ROUTE_CODES = new Set([
  'AMOUNT_TOO_LOW',
  'CHAIN_DISABLED',
  'INSUFFICIENT_LIQUIDITY',
  'NO_INTERNAL_SWAP_ROUTES_FOUND',
  'NO_QUOTES',
  'NO_SWAP_ROUTES_FOUND',
  'ROUTE_TEMPORARILY_RESTRICTED',
  'UNSUPPORTED_CHAIN',
  'UNSUPPORTED_CURRENCY',
  'UNSUPPORTED_ROUTE',
]);

/** Steps that move the funds; `approve` is the ERC-20 allowance before them. */
const DEPOSIT_STEPS = new Set(['deposit', 'swap', 'send']);

export function createRelayProvider(options: RelayProviderOptions): BridgeProvider {
  if (!options.enabled) {
    return disabledProvider(
      disabled('Relay is not configured: set RELAY_ENABLED=true or RELAY_API_URL to enable the Relay bridge upstream'),
    );
  }
  const http = createHttpClient({
    name: NAME,
    baseUrl: options.baseUrl ?? RELAY_DEFAULT_BASE_URL,
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    headers: options.apiKey ? { 'x-api-key': options.apiKey } : {},
    ...options.http,
  });
  return new RelayProvider(http, options.integrator ?? {}, options.appFeeRecipient);
}

class RelayProvider implements BridgeProvider {
  readonly name = NAME;
  readonly status: ProviderStatus = enabled;

  constructor(
    private readonly http: HttpClient,
    private readonly integrator: IntegratorSettings,
    private readonly appFeeRecipient: string | undefined,
  ) {}

  async chains(signal?: AbortSignal): Promise<BridgeChain[]> {
    const body = await this.http.getJson<{ chains?: RelayChain[] }>('/chains', {}, { signal });
    const out: BridgeChain[] = [];
    for (const chain of expectArray(body?.chains, 'chains.chains')) {
      if (chain.disabled === true) continue;
      const caip2Id = relayChainToCaip2(chain.id, chain.vmType);
      if (!caip2Id) continue;
      out.push({
        caip2Id,
        name: chain.displayName ?? chain.name,
        nativeToken: chain.currency?.symbol ?? '',
        logoURI: chain.logoUrl ?? chain.iconUrl ?? '',
        isBridgeSupported: chain.depositEnabled !== false,
      });
    }
    return out;
  }

  /** Relay's curated list for the chain (POST /currencies/v2, verified only; the API caps `limit` at 100). */
  async tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]> {
    const chainId = caip2ToRelayChain(caip2Id);
    if (chainId === undefined) return [];
    const body = await this.http.postJson<RelayCurrency[]>(
      '/currencies/v2',
      { chainIds: [chainId], defaultList: true, verified: true, limit: 100 },
      { signal },
    );
    return expectArray(body, 'currencies')
      .filter((c) => c.chainId === undefined || c.chainId === chainId)
      .filter((c) => typeof c.address === 'string' && Number.isInteger(c.decimals))
      .map((c) => ({
        address: c.address,
        symbol: c.symbol,
        name: c.name,
        decimals: c.decimals,
        logoURI: c.metadata?.logoURI ?? '',
      }));
  }

  /**
   * One route from POST /quote/v2 (what the SDK calls). Relay fills intents itself, so a route's
   * bridge is `relay`: the bridge lists are applied here, before asking. A quote that needs a
   * signature step (permits) or several deposit transactions cannot be one route and is skipped.
   */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]> {
    if (!bridgeListsAllow(request)) return [];
    const originChainId = caip2ToRelayChain(request.fromChain);
    const destinationChainId = caip2ToRelayChain(request.toChain);
    if (originChainId === undefined || destinationChainId === undefined) return [];
    const { integrator, fee } = this.integrator;
    let body: RelayQuote;
    try {
      body = await this.http.postJson<RelayQuote>(
        '/quote/v2',
        {
          user: request.fromAddress,
          recipient: request.toAddress,
          originChainId,
          destinationChainId,
          originCurrency: relayCurrency(request.fromToken),
          destinationCurrency: relayCurrency(request.toToken),
          amount: request.fromAmount.toString(),
          tradeType: 'EXACT_INPUT',
          // Relay takes slippage in basis points, as an integer string.
          slippageTolerance: String(Math.round(request.slippage * 10_000)),
          ...(integrator ? { referrer: integrator } : {}),
          ...(fee && this.appFeeRecipient
            ? { appFees: [{ recipient: this.appFeeRecipient, fee: String(Math.round(fee * 10_000)) }] }
            : {}),
        },
        { signal },
      );
    } catch (err) {
      if (isNoRoute(err)) return [];
      throw err;
    }
    const route = this.toRoute(body, request, originChainId, destinationChainId);
    return route ? [route] : [];
  }

  async transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    const requestId = typeof query.tracking?.requestId === 'string' ? query.tracking.requestId : undefined;
    if (requestId) return this.intentStatus(requestId, query);
    // Without a quote of ours, Relay's request index finds the transfer by its deposit hash.
    const body = await this.http.getJson<{ requests?: RelayRequest[] }>(
      '/requests/v2',
      { hash: query.txHash },
      { signal: query.signal },
    );
    const found = expectArray(body?.requests, 'requests.requests')[0];
    if (!found) return null;
    if (typeof found.status !== 'string') throw new UpstreamError(NAME, 'request without a status');
    const answer = toAnswer(found.status, found.data?.failReason);
    const fromTx = txInfo(found.data?.inTxs?.[0]);
    if (fromTx) answer.fromTx = fromTx;
    const toTx = txInfo(found.data?.outTxs?.[0]);
    if (toTx) answer.toTx = toTx;
    return answer;
  }

  private async intentStatus(requestId: string, query: StatusQuery): Promise<ProviderStatusAnswer> {
    let body: RelayIntentStatus;
    try {
      body = await this.http.getJson<RelayIntentStatus>('/intents/status/v3', { requestId }, { signal: query.signal });
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return { status: 'NOT_FOUND', bridge: NAME };
      throw err;
    }
    if (typeof body?.status !== 'string') throw new UpstreamError(NAME, 'intent status answer without a status');
    const answer = toAnswer(body.status, body.details);
    const originChainId = body.originChainId ?? numberOf(query.tracking?.originChainId);
    const fromTx = txInfo({ hash: body.inTxHashes?.[0] ?? query.txHash, chainId: originChainId });
    if (fromTx) answer.fromTx = fromTx;
    const destinationChainId = body.destinationChainId ?? numberOf(query.tracking?.destinationChainId);
    const toTx = txInfo({ hash: body.txHashes?.[0], chainId: destinationChainId });
    if (toTx) answer.toTx = toTx;
    return answer;
  }

  private toRoute(
    quote: RelayQuote,
    request: QuoteRequest,
    originChainId: number,
    destinationChainId: number,
  ): ProviderRoute | null {
    const steps = expectArray(quote?.steps, 'quote.steps');
    // A signature (permit, authorisation) is a second thing to sign that one route cannot carry.
    if (steps.some((s) => s.kind !== 'transaction')) return null;
    const deposits = steps.filter((s) => DEPOSIT_STEPS.has(s.id));
    const approvals = steps.filter((s) => s.id === 'approve');
    if (deposits.length !== 1 || approvals.length > 1 || deposits.length + approvals.length !== steps.length) {
      return null;
    }
    const deposit = deposits[0] as RelayStep;
    if (deposit.items?.length !== 1) return null;
    const item = deposit.items[0]?.data;
    if (!item) throw new UpstreamError(NAME, 'unexpected answer: deposit step without data');

    const out = quote.details?.currencyOut;
    const toAmount = requireInteger(out?.amount, 'details.currencyOut.amount');
    const toAmountMin = toIntegerString(out?.minimumAmount) ?? toAmount;
    const fromAmount = toIntegerString(quote.details?.currencyIn?.amount) ?? request.fromAmount.toString();

    let transactionData: TransactionData;
    let serializedTransaction: string | undefined;
    if (originChainId === RELAY_SOLANA_CHAIN_ID) {
      const instructions = expectArray(item.instructions, 'solana step instructions');
      const base64 = transactionFromInstructions(instructions, request.fromAddress);
      if (!base64) return null;
      serializedTransaction = base64;
      transactionData = {
        from: request.fromAddress,
        // The program the deposit ends in; the transaction itself is `data`.
        to: instructions.at(-1)?.programId ?? '',
        data: base64,
        value: '0',
        gasLimit: '0',
        gasPrice: '0',
        chainId: RELAY_SOLANA_CHAIN_ID,
      };
    } else {
      if (!item.to || !item.data)
        throw new UpstreamError(NAME, 'unexpected answer: deposit step without a transaction');
      transactionData = evmTransaction(item, request.fromAddress, originChainId);
    }

    let approvalAddress: string | undefined;
    let approvalTransaction: TransactionData | undefined;
    const approveItem = approvals[0]?.items?.[0]?.data;
    if (approveItem?.to && approveItem.data) {
      approvalTransaction = evmTransaction(approveItem, request.fromAddress, originChainId);
      try {
        const [spender] = AbiFunction.decodeData(ERC20_APPROVE, approveItem.data as `0x${string}`);
        approvalAddress = Address.checksum(spender);
      } catch {
        throw new UpstreamError(NAME, 'unexpected answer: approve step is not an approve call');
      }
    }
    const erc20Source = originChainId !== RELAY_SOLANA_CHAIN_ID && !isNativeEvm(request.fromToken);
    const requestId = deposit.requestId ?? approvals[0]?.requestId;
    return {
      fromChain: request.fromChain,
      toChain: request.toChain,
      fromToken: request.fromToken,
      toToken: request.toToken,
      fromAmount,
      toAmount,
      toAmountMin,
      gasCostUSD: toDecimalString(quote.fees?.gas?.amountUsd) ?? '0',
      feeCostUSD: sumDecimals([quote.fees?.relayer?.amountUsd, quote.fees?.app?.amountUsd]),
      fromAmountUSD: toDecimalString(quote.details?.currencyIn?.amountUsd) ?? '0',
      toAmountUSD: toDecimalString(out?.amountUsd) ?? '0',
      bridgeProvider: NAME,
      aggregator: NAME,
      estimatedTimeSeconds: Math.max(0, Math.round(Number(quote.details?.timeEstimate) || 0)),
      transactionData,
      ...(serializedTransaction ? { serializedTransaction } : {}),
      ...(approvalAddress ? { approvalAddress } : {}),
      ...(approvalTransaction ? { approvalTransaction } : {}),
      tracking: {
        ...(requestId ? { requestId } : {}),
        originChainId,
        destinationChainId,
        // Relay leaves the approve step out when the wallet's allowance already covers the amount.
        ...(erc20Source && !approvalTransaction ? { allowanceSufficient: true } : {}),
      },
    };
  }
}

function evmTransaction(tx: RelayEvmTx, from: string, chainId: number): TransactionData {
  return {
    from: tx.from ?? from,
    to: tx.to ?? '',
    data: tx.data ?? '0x',
    value: toIntegerString(tx.value) ?? '0',
    gasLimit: toIntegerString(tx.gas) ?? '0',
    gasPrice: toIntegerString(tx.gasPrice) ?? toIntegerString(tx.maxFeePerGas) ?? '0',
    chainId: tx.chainId ?? chainId,
  };
}

/** Relay writes the native EVM token as the zero address only. */
function relayCurrency(token: string): string {
  return isNativeEvm(token) ? NATIVE_EVM : token;
}

/**
 * Relay's intent states (v3 enum, plus the docs' `refunded` and `delayed` spellings): success is
 * final, a refund or failure means the funds went (or go) back to the sender.
 */
export function mapRelayStatus(status: string): { status: BridgeStatusValue; substatus: string } {
  switch (status) {
    case 'success':
      return { status: 'DONE', substatus: 'COMPLETED' };
    case 'refund':
    case 'refunded':
      return { status: 'FAILED', substatus: 'REFUNDED' };
    case 'failure':
      return { status: 'FAILED', substatus: 'FAILURE' };
    case 'waiting':
    case 'depositing':
    case 'pending':
    case 'submitted':
    case 'delayed':
      return { status: 'PENDING', substatus: status.toUpperCase() };
    default:
      return { status: 'NOT_FOUND', substatus: status.toUpperCase() };
  }
}

const MESSAGES: Record<string, string> = {
  COMPLETED: 'Relay filled the transfer on the destination chain',
  REFUNDED: 'Relay did not fill the transfer; the deposit was refunded to the sender',
  FAILURE: 'Relay could not fill the transfer; a refund follows',
  WAITING: 'Relay is waiting for the deposit transaction',
  DEPOSITING: 'Relay saw the deposit and is confirming it',
  PENDING: 'Relay is filling the transfer on the destination chain',
  SUBMITTED: 'Relay submitted the fill on the destination chain',
  DELAYED: 'Relay is taking longer than usual to fill the transfer',
};

function toAnswer(relayStatus: string, details: string | undefined): ProviderStatusAnswer {
  const { status, substatus } = mapRelayStatus(relayStatus);
  const answer: ProviderStatusAnswer = { status, substatus, bridge: NAME };
  const message = MESSAGES[substatus] ?? `Relay reports "${relayStatus}"`;
  answer.message = details ? `${message} (${details})` : message;
  if (details) answer.substatusMessage = details;
  return answer;
}

function txInfo(tx: RelayRequestTx | undefined): TxInfo | undefined {
  if (!tx?.hash || tx.chainId === undefined) return undefined;
  const caip2 = relayChainToCaip2(tx.chainId);
  return {
    txHash: tx.hash,
    txLink: (caip2 ? explorerTxLink(caip2, tx.hash) : undefined) ?? '',
    chainId: tx.chainId,
    gasUsed: '0',
    gasPrice: '0',
    timestamp: typeof tx.timestamp === 'number' && Number.isFinite(tx.timestamp) ? Math.floor(tx.timestamp) : 0,
  };
}

/** LI.FI's semantics for the lists (case-blind names); Relay routes only through itself. */
function bridgeListsAllow(request: QuoteRequest): boolean {
  const named = (list: string[]) => list.some((b) => b.toLowerCase() === NAME);
  if (request.allowBridges.length > 0 && !named(request.allowBridges)) return false;
  return !named(request.denyBridges);
}

function isNoRoute(err: unknown): boolean {
  if (!(err instanceof UpstreamHttpError) || !err.isClientError) return false;
  const code = (err.body as { errorCode?: unknown } | null)?.errorCode;
  return typeof code === 'string' && NO_ROUTE_CODES.has(code);
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function expectArray<T>(value: T[] | undefined, what: string): T[] {
  if (!Array.isArray(value)) throw new UpstreamError(NAME, `unexpected answer: ${what} is not a list`);
  return value;
}

function requireInteger(value: unknown, what: string): string {
  const v = toIntegerString(value);
  if (v === undefined) throw new UpstreamError(NAME, `unexpected answer: ${what} is not an integer amount`);
  return v;
}

function disabledProvider(status: ProviderStatus): BridgeProvider {
  const refuse = async (): Promise<never> => {
    throw new UpstreamError(NAME, status.enabled ? 'disabled' : status.reason);
  };
  return { name: NAME, status, chains: refuse, tokens: refuse, quote: refuse, transferStatus: refuse };
}
