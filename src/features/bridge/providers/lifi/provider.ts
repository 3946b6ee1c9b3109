import { explorerTxLink } from '../../../../platform/chains/registry.js';
import {
  createHttpClient,
  type HttpClient,
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
  IntegratorSettings,
  ProviderRoute,
  ProviderStatusAnswer,
  QuoteRequest,
  StatusQuery,
  TxInfo,
} from '../types.js';
import { caip2ToLifiChain, lifiChainToCaip2 } from './chains.js';

export const LIFI_DEFAULT_BASE_URL = 'https://li.quest/v1';
const NAME = 'lifi';

export interface LifiProviderOptions {
  /** Defaults to LI.FI's public API. */
  baseUrl?: string | undefined;
  /** Sent as `x-lifi-api-key`; LI.FI works without one, at lower rate limits. */
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  /** Longest answer body read; the HTTP client's default when unset. */
  maxBodyBytes?: number | undefined;
  enabled: boolean;
  /** Operator's integrator name and fee (BRIDGE_INTEGRATOR, BRIDGE_FEE), sent with every route request. */
  integrator?: IntegratorSettings;
  /** Overrides of the HTTP client's resilience settings (tests use short ones). */
  http?: Pick<Parameters<typeof createHttpClient>[0], 'breaker' | 'backoff' | 'sleep'>;
}

/** POST /advanced/routes answer (`@lifi/types` RoutesResponse); a route's steps carry no transaction yet. */
interface LifiRoutesResponse {
  routes?: { id?: string; steps?: LifiStep[] }[];
}

/** Wire shapes, after `@lifi/types` (api.ts, step.ts, chains, tokens); only what we read. */
interface LifiToken {
  address: string;
  chainId: number;
  symbol: string;
  decimals: number;
  name: string;
  logoURI?: string;
  priceUSD?: string | number;
}

interface LifiChain {
  id: number;
  key?: string;
  chainType?: string;
  name: string;
  coin?: string;
  mainnet?: boolean;
  logoURI?: string;
  nativeToken?: { symbol?: string };
}

interface LifiCost {
  amountUSD?: string;
}

interface LifiStep {
  id: string;
  type: string;
  tool: string;
  action: {
    fromChainId: number;
    toChainId: number;
    fromToken: { address: string };
    toToken: { address: string };
    fromAddress?: string;
  };
  estimate: {
    fromAmount: string;
    toAmount: string;
    toAmountMin: string;
    fromAmountUSD?: string;
    toAmountUSD?: string;
    approvalAddress?: string;
    feeCosts?: LifiCost[];
    gasCosts?: LifiCost[];
    executionDuration: number;
  };
  transactionRequest?: {
    to?: string;
    from?: string;
    data?: string;
    value?: string;
    gasLimit?: string;
    gasPrice?: string;
    maxFeePerGas?: string;
    chainId?: number;
  };
}

interface LifiTxInfo {
  txHash?: string;
  txLink?: string;
  chainId?: number;
  gasPrice?: string;
  gasUsed?: string;
  timestamp?: number;
}

interface LifiStatus {
  status: string;
  substatus?: string;
  substatusMessage?: string;
  tool?: string;
  sending?: LifiTxInfo;
  receiving?: LifiTxInfo;
}

/** LI.FI error code for "no quote for this transfer" (`@lifi/types` ErrorCode.NoQuoteError). */
const NO_QUOTE_ERROR = 1002;

export function createLifiProvider(options: LifiProviderOptions): BridgeProvider {
  if (!options.enabled) {
    return disabledProvider(
      disabled('LI.FI is not configured: set LIFI_ENABLED=true or LIFI_API_URL to enable the LI.FI bridge upstream'),
    );
  }
  const http = createHttpClient({
    name: NAME,
    baseUrl: options.baseUrl ?? LIFI_DEFAULT_BASE_URL,
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    headers: options.apiKey ? { 'x-lifi-api-key': options.apiKey } : {},
    ...options.http,
  });
  return new LifiProvider(http, options.integrator ?? {});
}

class LifiProvider implements BridgeProvider {
  readonly name = NAME;
  readonly status: ProviderStatus = enabled;

  constructor(
    private readonly http: HttpClient,
    private readonly integrator: IntegratorSettings,
  ) {}

  async chains(signal?: AbortSignal): Promise<BridgeChain[]> {
    // Only the chain families cipgate can express in CAIP-2; LI.FI also lists MVM and TVM chains.
    const body = await this.http.getJson<{ chains?: LifiChain[] }>(
      '/chains',
      { chainTypes: 'EVM,SVM,UTXO' },
      { signal },
    );
    const chains = expectArray(body?.chains, 'chains.chains');
    const out: BridgeChain[] = [];
    for (const chain of chains) {
      if (chain.mainnet === false) continue;
      const caip2Id = lifiChainToCaip2(chain.id, chain.chainType);
      if (!caip2Id) continue;
      out.push({
        caip2Id,
        name: chain.name,
        nativeToken: chain.nativeToken?.symbol ?? chain.coin ?? '',
        logoURI: chain.logoURI ?? '',
        isBridgeSupported: true,
      });
    }
    return out;
  }

  async tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]> {
    const chainId = caip2ToLifiChain(caip2Id);
    if (chainId === undefined) return [];
    const body = await this.http.getJson<{ tokens?: Record<string, LifiToken[]> }>(
      '/tokens',
      { chains: chainId },
      { signal },
    );
    const tokens = body?.tokens?.[String(chainId)];
    if (tokens === undefined) return [];
    return expectArray(tokens, `tokens.tokens[${chainId}]`).map((t) => {
      // LI.FI leaves priceUSD out for tokens it cannot price; so do we, rather than invent one.
      const priceUSD = toDecimalString(t.priceUSD);
      return {
        address: t.address,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        logoURI: t.logoURI ?? '',
        ...(priceUSD !== undefined ? { priceUSD } : {}),
      };
    });
  }

  /**
   * Several routes through /advanced/routes (ranked by LI.FI in the order asked, with the bridge
   * lists applied upstream), then each single-step route's transaction from /advanced/stepTransaction.
   * A multi-step route needs several signed transactions over time, which one route answer cannot
   * carry, so it is skipped.
   */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]> {
    const fromChainId = caip2ToLifiChain(request.fromChain);
    const toChainId = caip2ToLifiChain(request.toChain);
    if (fromChainId === undefined || toChainId === undefined) return [];
    const { integrator, fee } = this.integrator;
    let body: LifiRoutesResponse;
    try {
      body = await this.http.postJson<LifiRoutesResponse>(
        '/advanced/routes',
        {
          fromChainId,
          toChainId,
          fromTokenAddress: request.fromToken,
          toTokenAddress: request.toToken,
          fromAmount: request.fromAmount.toString(),
          fromAddress: request.fromAddress,
          toAddress: request.toAddress,
          options: {
            slippage: request.slippage,
            order: request.order,
            allowSwitchChain: false,
            ...(request.allowBridges.length || request.denyBridges.length
              ? {
                  bridges: {
                    ...(request.allowBridges.length ? { allow: request.allowBridges } : {}),
                    ...(request.denyBridges.length ? { deny: request.denyBridges } : {}),
                  },
                }
              : {}),
            ...(integrator ? { integrator } : {}),
            ...(integrator && fee ? { fee } : {}),
          },
        },
        { signal },
      );
    } catch (err) {
      if (isNoRoute(err)) return [];
      throw err;
    }
    const candidates = expectArray(body?.routes, 'routes.routes')
      .filter((r) => r.steps?.length === 1)
      .slice(0, request.maxRoutes)
      .map((r) => r.steps?.[0] as LifiStep);
    const settled = await Promise.allSettled(
      candidates.map((step) => this.http.postJson<LifiStep>('/advanced/stepTransaction', step, { signal })),
    );
    const routes: ProviderRoute[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'fulfilled') {
        const route = this.toRoute(outcome.value, request);
        if (route) routes.push(route);
      }
    }
    // Every transaction request failed: that is the upstream failing, not "no route".
    const failure = settled.find((o) => o.status === 'rejected');
    if (routes.length === 0 && failure) throw failure.reason;
    return routes;
  }

  async transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    const tool = typeof query.tracking?.tool === 'string' ? query.tracking.tool : query.bridgeTool;
    let body: LifiStatus;
    try {
      body = await this.http.getJson<LifiStatus>(
        '/status',
        {
          txHash: query.txHash,
          bridge: tool,
          fromChain: query.fromChain ? caip2ToLifiChain(query.fromChain) : undefined,
          toChain: query.toChain ? caip2ToLifiChain(query.toChain) : undefined,
        },
        { signal: query.signal },
      );
    } catch (err) {
      // LI.FI answers an unknown hash with 404; its body may still carry a NOT_FOUND status object.
      if (err instanceof UpstreamHttpError && err.status === 404) {
        return isStatusBody(err.body) ? this.toStatus(err.body) : null;
      }
      throw err;
    }
    if (!isStatusBody(body)) throw new UpstreamError(NAME, 'status answer without a status field');
    return this.toStatus(body);
  }

  private toRoute(step: LifiStep, request: QuoteRequest): ProviderRoute | null {
    const { estimate, action, transactionRequest: tx } = step;
    if (!estimate || !action) throw new UpstreamError(NAME, 'quote answer without estimate or action');
    // A step without a transaction cannot be executed by the caller: it is not a usable route.
    if (!tx?.data) return null;
    const fromChain = lifiChainToCaip2(action.fromChainId) ?? request.fromChain;
    const toChain = lifiChainToCaip2(action.toChainId) ?? request.toChain;
    return {
      fromChain,
      toChain,
      fromToken: action.fromToken.address,
      toToken: action.toToken.address,
      fromAmount: requireInteger(estimate.fromAmount, 'estimate.fromAmount'),
      toAmount: requireInteger(estimate.toAmount, 'estimate.toAmount'),
      toAmountMin: requireInteger(estimate.toAmountMin, 'estimate.toAmountMin'),
      gasCostUSD: sumDecimals((estimate.gasCosts ?? []).map((c) => c.amountUSD)),
      feeCostUSD: sumDecimals((estimate.feeCosts ?? []).map((c) => c.amountUSD)),
      fromAmountUSD: toDecimalString(estimate.fromAmountUSD) ?? '0',
      toAmountUSD: toDecimalString(estimate.toAmountUSD) ?? '0',
      bridgeProvider: (step.tool || NAME).toLowerCase(),
      aggregator: NAME,
      estimatedTimeSeconds: Math.max(0, Math.round(Number(estimate.executionDuration) || 0)),
      ...(estimate.approvalAddress ? { approvalAddress: estimate.approvalAddress } : {}),
      // LI.FI answers a Solana source with the base64 serialised transaction in `data`.
      ...(fromChain.startsWith('solana:') ? { serializedTransaction: tx.data } : {}),
      transactionData: {
        from: tx.from ?? action.fromAddress ?? request.fromAddress,
        to: tx.to ?? '',
        data: tx.data,
        value: toIntegerString(tx.value) ?? '0',
        gasLimit: toIntegerString(tx.gasLimit) ?? '0',
        // EIP-1559 chains may come without gasPrice; maxFeePerGas is a price the transaction can pay.
        gasPrice: toIntegerString(tx.gasPrice) ?? toIntegerString(tx.maxFeePerGas) ?? '0',
        chainId: tx.chainId ?? action.fromChainId,
      },
      tracking: {
        tool: step.tool,
        stepId: step.id,
        stepType: step.type,
        fromChainId: action.fromChainId,
        toChainId: action.toChainId,
      },
    };
  }

  private toStatus(body: LifiStatus): ProviderStatusAnswer {
    const status = mapStatus(body.status);
    const answer: ProviderStatusAnswer = { status, bridge: NAME };
    if (body.tool) answer.tool = body.tool.toLowerCase();
    // An unknown top-level status is kept as the substatus so the caller's message still says it.
    const substatus = body.substatus ?? (isKnownStatus(body.status) ? undefined : body.status);
    if (substatus) answer.substatus = substatus;
    if (body.substatusMessage) answer.substatusMessage = body.substatusMessage;
    const message =
      body.substatusMessage ?? (body.status === 'INVALID' ? 'LI.FI cannot track this transfer' : undefined);
    if (message) answer.message = message;
    const fromTx = toTxInfo(body.sending);
    if (fromTx) answer.fromTx = fromTx;
    const toTx = toTxInfo(body.receiving);
    if (toTx) answer.toTx = toTx;
    return answer;
  }
}

function mapStatus(status: string): BridgeStatusValue {
  switch (status) {
    case 'DONE':
      return 'DONE';
    case 'FAILED':
      return 'FAILED';
    case 'PENDING':
      return 'PENDING';
    case 'NOT_FOUND':
    case 'INVALID':
      return 'NOT_FOUND';
    default:
      // `@lifi/types` lists the values above; a value added later is most likely another "in flight"
      // state, and answering PENDING keeps clients polling instead of failing their request.
      return 'PENDING';
  }
}

function isKnownStatus(status: string): boolean {
  return ['DONE', 'FAILED', 'PENDING', 'NOT_FOUND', 'INVALID'].includes(status);
}

function toTxInfo(info: LifiTxInfo | undefined): TxInfo | undefined {
  // A receiving side that has not happened yet is just `{ chainId }`.
  if (!info?.txHash || info.chainId === undefined) return undefined;
  const caip2 = lifiChainToCaip2(info.chainId);
  return {
    txHash: info.txHash,
    txLink: info.txLink ?? (caip2 ? explorerTxLink(caip2, info.txHash) : undefined) ?? '',
    chainId: info.chainId,
    gasUsed: toIntegerString(info.gasUsed) ?? '0',
    gasPrice: toIntegerString(info.gasPrice) ?? '0',
    timestamp: toSeconds(info.timestamp),
  };
}

/** The spec wants seconds; guard against a millisecond value, which would otherwise land in year 50 000. */
function toSeconds(timestamp: number | undefined): number {
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return 0;
  return Math.floor(timestamp > 1e12 ? timestamp / 1000 : timestamp);
}

function isNoRoute(err: unknown): boolean {
  if (!(err instanceof UpstreamHttpError)) return false;
  if (err.status === 404) return true;
  const code = (err.body as { code?: unknown } | null)?.code;
  return err.isClientError && code === NO_QUOTE_ERROR;
}

function isStatusBody(body: unknown): body is LifiStatus {
  return body !== null && typeof body === 'object' && typeof (body as { status?: unknown }).status === 'string';
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
