import { explorerTxLink, NATIVE_EVM, NATIVE_SOLANA } from '../../../../platform/chains/registry.js';
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
import type {
  BridgeChain,
  BridgeProvider,
  BridgeStatusValue,
  BridgeToken,
  ProviderRoute,
  ProviderStatusAnswer,
  QuoteRequest,
  StatusQuery,
  TxInfo,
} from '../types.js';

export const SQUID_DEFAULT_BASE_URL = 'https://v2.api.squidrouter.com';
const NAME = 'squid';
/** Squid writes every chain's native token as the 0xEeee… placeholder (EVM and Solana alike). */
export const SQUID_NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
/** Squid's id for Solana mainnet (seen in third-party integrations; Squid's docs list no other). */
export const SQUID_SOLANA_CHAIN_ID = 'solana-mainnet-beta';
const SOLANA_CAIP2 = 'solana:mainnet-beta';

export interface SquidProviderOptions {
  enabled: boolean;
  /** Defaults to Squid's v2 API host. */
  baseUrl?: string | undefined;
  /** Sent as `x-integrator-id` on every call; Squid refuses calls without one, so none disables Squid. */
  integratorId?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  maxBodyBytes?: number | undefined;
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep'>;
}

/** Wire shapes after `@0xsquid/squid-types` 0.1.253 (chains, tokens, routes, status); only what we read. */
interface SquidChain {
  chainId: string | number;
  chainType?: string;
  networkName?: string;
  chainName?: string;
  chainIconURI?: string;
  nativeCurrency?: { symbol?: string };
}

interface SquidToken {
  chainId: string | number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoURI?: string;
  usdPrice?: number | string;
}

interface SquidCost {
  amountUsd?: string;
}

interface SquidAction {
  type?: string;
  provider?: string;
}

interface SquidRoute {
  quoteId?: string;
  estimate?: {
    actions?: SquidAction[];
    fromAmount: string;
    toAmount: string;
    toAmountMin: string;
    fromAmountUSD?: string;
    toAmountUSD?: string;
    estimatedRouteDuration?: number;
    gasCosts?: SquidCost[];
    feeCosts?: SquidCost[];
  };
  transactionRequest?: {
    type?: string;
    target?: string;
    data?: string;
    value?: string;
    gasLimit?: string;
    gasPrice?: string;
    maxFeePerGas?: string;
    requestId?: string;
    expiry?: string | number;
  };
  params?: { fromChain?: string; toChain?: string };
}

interface SquidStatusChainInfo {
  transactionId?: string;
  transactionUrl?: string;
  chainData?: { chainId?: string | number };
}

interface SquidStatus {
  id?: string;
  status?: string;
  squidTransactionStatus?: string;
  fromChain?: SquidStatusChainInfo;
  toChain?: SquidStatusChainInfo;
}

export function createSquidProvider(options: SquidProviderOptions): BridgeProvider {
  if (!options.integratorId) {
    return disabledProvider(
      disabled('Squid is not configured: SQUID_INTEGRATOR_ID is not set (Squid answers no call without one)'),
    );
  }
  if (!options.enabled) return disabledProvider(disabled('Squid is switched off (SQUID_ENABLED=false)'));
  const http = createHttpClient({
    name: NAME,
    baseUrl: options.baseUrl ?? SQUID_DEFAULT_BASE_URL,
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    headers: { 'x-integrator-id': options.integratorId },
    ...options.http,
  });
  return new SquidProvider(http);
}

class SquidProvider implements BridgeProvider {
  readonly name = NAME;
  readonly status: ProviderStatus = enabled;

  constructor(private readonly http: HttpClient) {}

  async chains(signal?: AbortSignal): Promise<BridgeChain[]> {
    const out: BridgeChain[] = [];
    for (const chain of await this.sdkInfo<SquidChain>('chains', signal)) {
      const caip2Id = squidChainToCaip2(String(chain.chainId));
      if (!caip2Id) continue;
      out.push({
        caip2Id,
        name: chain.networkName ?? chain.chainName ?? String(chain.chainId),
        nativeToken: chain.nativeCurrency?.symbol ?? '',
        logoURI: chain.chainIconURI ?? '',
        isBridgeSupported: true,
      });
    }
    return out;
  }

  async tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]> {
    const chainId = caip2ToSquidChain(caip2Id);
    if (chainId === undefined) return [];
    const tokens = await this.sdkInfo<SquidToken>('tokens', signal);
    return tokens
      .filter((t) => String(t.chainId) === chainId && Number.isInteger(t.decimals))
      .map((t) => {
        const priceUSD = toDecimalString(t.usdPrice);
        return {
          address: fromSquidToken(t.address, caip2Id),
          symbol: t.symbol,
          name: t.name,
          decimals: t.decimals,
          logoURI: t.logoURI ?? '',
          ...(priceUSD !== undefined ? { priceUSD } : {}),
        };
      });
  }

  /**
   * One route from POST /v2/route. Only EVM sources: Squid's other sources are deposit-address
   * flows, which are not a transaction a wallet signs. Squid chooses the bridge itself; the
   * aggregation applies the caller's bridge lists to the bridge the route names.
   */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]> {
    const fromChain = caip2ToSquidChain(request.fromChain);
    const toChain = caip2ToSquidChain(request.toChain);
    if (fromChain === undefined || toChain === undefined || !request.fromChain.startsWith('eip155:')) return [];
    let body: { route?: SquidRoute };
    try {
      body = await this.http.postJson<{ route?: SquidRoute }>(
        '/v2/route',
        {
          fromChain,
          toChain,
          fromToken: toSquidToken(request.fromToken, request.fromChain),
          toToken: toSquidToken(request.toToken, request.toChain),
          fromAmount: request.fromAmount.toString(),
          fromAddress: request.fromAddress,
          toAddress: request.toAddress,
          // Squid's slippage is in percent (1 = 1%).
          slippage: Number((request.slippage * 100).toFixed(4)),
          quoteOnly: false,
        },
        { signal },
      );
    } catch (err) {
      if (isNoRoute(err)) return [];
      throw err;
    }
    const route = body?.route;
    if (!route?.estimate) throw new UpstreamError(NAME, 'route answer without an estimate');
    const tx = route.transactionRequest;
    // Deposit-address and signature flows are not one transaction the caller can send.
    if (!tx?.target || !tx.data || (tx.type !== undefined && tx.type !== 'ON_CHAIN_EXECUTION')) return [];
    const { estimate } = route;
    const chainId = Number(fromChain);
    const bridge = estimate.actions?.find((a) => a.type === 'bridge')?.provider;
    const expiry = toSeconds(Number(tx.expiry));
    // A transaction Squid will refuse by the time the caller signs it is no route.
    if (expiry !== undefined && expiry <= Date.now() / 1000) return [];
    return [
      {
        fromChain: request.fromChain,
        toChain: request.toChain,
        fromToken: request.fromToken,
        toToken: request.toToken,
        fromAmount: requireInteger(estimate.fromAmount, 'estimate.fromAmount'),
        toAmount: requireInteger(estimate.toAmount, 'estimate.toAmount'),
        toAmountMin: requireInteger(estimate.toAmountMin, 'estimate.toAmountMin'),
        gasCostUSD: sumDecimals((estimate.gasCosts ?? []).map((c) => c.amountUsd)),
        feeCostUSD: sumDecimals((estimate.feeCosts ?? []).map((c) => c.amountUsd)),
        fromAmountUSD: toDecimalString(estimate.fromAmountUSD) ?? '0',
        toAmountUSD: toDecimalString(estimate.toAmountUSD) ?? '0',
        bridgeProvider: bridge ? bridge.toLowerCase().replace(/[^a-z0-9_-]/g, '') || NAME : NAME,
        aggregator: NAME,
        estimatedTimeSeconds: Math.max(0, Math.round(Number(estimate.estimatedRouteDuration) || 0)),
        transactionData: {
          from: request.fromAddress,
          to: tx.target,
          data: tx.data,
          value: toIntegerString(tx.value) ?? '0',
          gasLimit: toIntegerString(tx.gasLimit) ?? '0',
          gasPrice: toIntegerString(tx.gasPrice) ?? toIntegerString(tx.maxFeePerGas) ?? '0',
          chainId,
        },
        // Squid's router pulls the tokens itself: the transaction's target is the spender it documents.
        approvalAddress: tx.target,
        ...(expiry !== undefined ? { expiresAt: expiry } : {}),
        tracking: {
          fromChainId: fromChain,
          toChainId: toChain,
          ...(route.quoteId ? { quoteId: route.quoteId } : {}),
          ...(tx.requestId ? { requestId: tx.requestId } : {}),
        },
      },
    ];
  }

  async transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    const tracking = query.tracking ?? {};
    // Tracking is stored only with routes cipgate quoted.
    const quoted = query.tracking !== undefined;
    const fromChainId =
      stringOr(tracking.fromChainId) ?? (query.fromChain ? caip2ToSquidChain(query.fromChain) : undefined);
    const toChainId = stringOr(tracking.toChainId) ?? (query.toChain ? caip2ToSquidChain(query.toChain) : undefined);
    let body: SquidStatus;
    try {
      body = await this.http.getJson<SquidStatus>(
        '/v2/status',
        {
          transactionId: query.txHash,
          fromChainId,
          toChainId,
          quoteId: stringOr(tracking.quoteId),
          requestId: stringOr(tracking.requestId),
        },
        { signal: query.signal },
      );
    } catch (err) {
      // Squid answers 404 until it has indexed the source transaction.
      if (err instanceof UpstreamHttpError && err.status === 404) {
        return quoted ? { status: 'PENDING', bridge: NAME, substatus: 'NOT_FOUND', message: NOT_INDEXED } : null;
      }
      throw err;
    }
    const state = body?.squidTransactionStatus;
    if (typeof state !== 'string') throw new UpstreamError(NAME, 'status answer without squidTransactionStatus');
    const mapped = mapStatus(state);
    // A transfer quoted through us that Squid has not seen yet is in flight, not unknown.
    if (mapped.status === 'NOT_FOUND' && quoted) {
      return { status: 'PENDING', bridge: NAME, substatus: 'NOT_FOUND', message: NOT_INDEXED };
    }
    const answer: ProviderStatusAnswer = {
      status: mapped.status,
      bridge: NAME,
      substatus: mapped.substatus,
      message: mapped.message,
    };
    const fromTx = txInfo(body.fromChain, fromChainId);
    if (fromTx) answer.fromTx = fromTx;
    const toTx = txInfo(body.toChain, toChainId);
    if (toTx) answer.toTx = toTx;
    return answer;
  }

  /** GET /v2/sdk-info, where Squid's SDK reads its chain and token lists (`{chains, tokens, …}`). */
  private async sdkInfo<T>(key: 'chains' | 'tokens', signal?: AbortSignal): Promise<T[]> {
    const body = await this.http.getJson<Record<string, unknown>>('/v2/sdk-info', {}, { signal });
    const list = body?.[key];
    if (!Array.isArray(list)) throw new UpstreamError(NAME, `unexpected answer: ${key} is not a list`);
    return list as T[];
  }
}

const NOT_INDEXED = 'Squid has not indexed the source transaction yet';

/** `squidTransactionStatus` values (`@0xsquid/squid-types` status enum; Squid's docs also say `refund`). */
function mapStatus(state: string): { status: BridgeStatusValue; substatus: string; message: string } {
  const substatus = state.toUpperCase();
  switch (state) {
    case 'success':
      return { status: 'DONE', substatus: 'COMPLETED', message: 'Delivered on the destination chain' };
    case 'partial_success':
      return { status: 'PENDING', substatus, message: 'Part of the route executed; Squid is still completing it' };
    case 'needs_gas':
      return { status: 'PENDING', substatus, message: 'The destination call needs more gas to execute' };
    case 'ongoing':
      return { status: 'PENDING', substatus, message: 'In flight' };
    case 'not_found':
      return { status: 'NOT_FOUND', substatus, message: 'Squid does not know this transaction' };
    case 'failed_on_destination':
      return { status: 'FAILED', substatus, message: 'The destination transaction failed' };
    case 'refunded':
    case 'refund':
      return { status: 'FAILED', substatus: 'REFUNDED', message: 'The transfer failed and was refunded' };
    default:
      // A state added later is most likely another in-flight one; PENDING keeps clients polling.
      return { status: 'PENDING', substatus, message: `Squid reports "${state}"` };
  }
}

function txInfo(info: SquidStatusChainInfo | undefined, fallbackChain: string | undefined): TxInfo | undefined {
  if (!info?.transactionId) return undefined;
  const chain = info.chainData?.chainId !== undefined ? String(info.chainData.chainId) : fallbackChain;
  const chainId = Number(chain);
  if (!Number.isSafeInteger(chainId)) return undefined;
  return {
    txHash: info.transactionId,
    txLink: info.transactionUrl ?? explorerTxLink(`eip155:${chainId}`, info.transactionId) ?? '',
    chainId,
    gasUsed: '0',
    gasPrice: '0',
    timestamp: 0,
  };
}

export function squidChainToCaip2(chainId: string): string | undefined {
  if (chainId === SQUID_SOLANA_CHAIN_ID) return SOLANA_CAIP2;
  return /^[1-9]\d{0,15}$/.test(chainId) ? `eip155:${chainId}` : undefined;
}

export function caip2ToSquidChain(caip2Id: string): string | undefined {
  if (caip2Id === SOLANA_CAIP2) return SQUID_SOLANA_CHAIN_ID;
  const m = /^eip155:([1-9]\d{0,15})$/.exec(caip2Id);
  return m ? m[1] : undefined;
}

/** Our native token (EVM zero address, Solana's system program) as Squid writes it, and back. */
function toSquidToken(token: string, caip2Id: string): string {
  const native = caip2Id === SOLANA_CAIP2 ? NATIVE_SOLANA : NATIVE_EVM;
  return token.toLowerCase() === native.toLowerCase() ? SQUID_NATIVE : token;
}

function fromSquidToken(token: string, caip2Id: string): string {
  if (token.toLowerCase() !== SQUID_NATIVE.toLowerCase()) return token;
  return caip2Id === SOLANA_CAIP2 ? NATIVE_SOLANA : NATIVE_EVM;
}

/** Seconds since the epoch (Squid may write milliseconds); undefined when absent. */
function toSeconds(value: number): number | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  return Math.floor(value > 1e12 ? value / 1000 : value);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Squid's other 4xx answers (bad token, amount too low…) reach the caller as the upstream's refusal. */
function isNoRoute(err: unknown): boolean {
  return err instanceof UpstreamHttpError && err.status === 404;
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
