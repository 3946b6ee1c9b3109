import * as Address from 'ox/Address';
import { chainByEvmId, explorerTxLink, NATIVE_EVM } from '../../../../platform/chains/registry.js';
import {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  toDecimalString,
  toIntegerString,
  UpstreamHttpError,
  usdValue,
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
import { WRAPPED_NATIVE } from './contracts.js';

export const ACROSS_DEFAULT_BASE_URL = 'https://app.across.to/api';
const NAME = 'across';
const ZERO_ADDRESS = NATIVE_EVM as Address.Address;

export interface AcrossProviderOptions {
  /** Defaults to Across's public API. */
  baseUrl?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  /** Longest answer body read; the HTTP client's default when unset. */
  maxBodyBytes?: number | undefined;
  enabled: boolean;
  /** Sent as `Authorization: Bearer` on every call (production use of the Across API needs one). */
  apiKey?: string | undefined;
  /** 2-byte hex integrator id, sent as `integratorId` with every quote. */
  integratorId?: string | undefined;
  /** How long token metadata from /swap/tokens is reused (Across asks for at most 300 s of caching). */
  tokenMetadataTtlMs?: number;
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep' | 'now'>;
}

/** /available-routes element (Across API reference). */
interface AcrossRoute {
  originChainId: number;
  originToken: string;
  destinationChainId: number;
  destinationToken: string;
  originTokenSymbol?: string;
  destinationTokenSymbol?: string;
  isNative?: boolean;
}

/** /swap/tokens element: the Across API's token list, with decimals and a USD price when known. */
interface AcrossTokenInfo {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logoUrl?: string;
  priceUsd?: string | number | null;
}

/** Unsigned transaction of the Swap API (`swapTx`, `approvalTxns[]`). */
interface SwapApiTx {
  chainId?: number;
  to: string;
  data: string;
  value?: string;
  gas?: string;
  maxFeePerGas?: string;
  gasPrice?: string;
}

interface SwapApiFee {
  amount?: string;
  amountUsd?: string;
}

/** GET /swap/approval answer (across-protocol/frontend `buildBaseSwapResponseJson`); only what we read. */
interface SwapApproval {
  id?: string;
  checks?: { allowance?: { token: string; spender: string; actual: string; expected: string } };
  approvalTxns?: SwapApiTx[];
  inputAmount?: string;
  expectedOutputAmount: string;
  minOutputAmount?: string;
  expectedFillTime?: number;
  fees?: { total?: SwapApiFee; originGas?: SwapApiFee };
  swapTx?: SwapApiTx;
}

/** /deposit/status answer. */
interface DepositStatus {
  status: string;
  originChainId?: number;
  destinationChainId?: number;
  depositId?: string | number;
  depositTxnRef?: string | null;
  depositTxHash?: string | null;
  fillTxnRef?: string | null;
  fillTx?: string | null;
  depositRefundTxnRef?: string | null;
}

/** Across error codes that mean "no route for this request" rather than "bad request". */
const NO_ROUTE_CODES = new Set([
  'ROUTE_NOT_ENABLED',
  'AMOUNT_TOO_LOW',
  'AMOUNT_TOO_HIGH',
  'SWAP_LIQUIDITY_INSUFFICIENT',
  'SWAP_QUOTE_UNAVAILABLE',
]);

export function createAcrossProvider(options: AcrossProviderOptions): BridgeProvider {
  if (!options.enabled) {
    return disabledProvider(
      disabled(
        'Across is not configured: set ACROSS_ENABLED=true or ACROSS_API_URL to enable the Across bridge upstream',
      ),
    );
  }
  const http = createHttpClient({
    name: NAME,
    baseUrl: options.baseUrl ?? ACROSS_DEFAULT_BASE_URL,
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    ...options.http,
  });
  return new AcrossProvider(
    http,
    options.integratorId,
    options.tokenMetadataTtlMs ?? 60_000,
    options.http?.now ?? Date.now,
  );
}

class AcrossProvider implements BridgeProvider {
  readonly name = NAME;
  readonly status: ProviderStatus = enabled;
  private readonly metadata = new Map<number, { at: number; tokens: Promise<Map<string, AcrossTokenInfo>> }>();

  constructor(
    private readonly http: HttpClient,
    private readonly integratorId: string | undefined,
    private readonly metadataTtlMs: number,
    private readonly now: () => number,
  ) {}

  async chains(signal?: AbortSignal): Promise<BridgeChain[]> {
    const routes = await this.routes(signal);
    const ids = new Set<number>();
    for (const r of routes) {
      ids.add(r.originChainId);
      ids.add(r.destinationChainId);
    }
    const out: BridgeChain[] = [];
    // Across's route list names no chains; cipgate describes chains from its own registry, so only
    // chains it knows are listed.
    for (const id of [...ids].sort((a, b) => a - b)) {
      const known = chainByEvmId(id);
      if (!known) continue;
      out.push({
        caip2Id: known.caip2Id,
        name: known.name,
        nativeToken: known.nativeToken,
        logoURI: known.logoURI,
        isBridgeSupported: true,
      });
    }
    return out;
  }

  async tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]> {
    const chainId = evmChainId(caip2Id);
    if (chainId === undefined) return [];
    const [routes, metadata] = await Promise.all([this.routes(signal), this.tokenMetadata(chainId, signal)]);
    const addresses = new Map<string, string>();
    let native = false;
    const wrapped = WRAPPED_NATIVE[chainId]?.toLowerCase();
    for (const r of routes) {
      for (const [id, token] of [
        [r.originChainId, r.originToken],
        [r.destinationChainId, r.destinationToken],
      ] as const) {
        if (id !== chainId) continue;
        addresses.set(token.toLowerCase(), token);
        // The SpokePool wraps msg.value, so wherever the wrapped native token moves, the native one can too.
        if (token.toLowerCase() === wrapped || (id === r.originChainId && r.isNative)) native = true;
      }
    }
    if (native) addresses.set(ZERO_ADDRESS, ZERO_ADDRESS);
    const out: BridgeToken[] = [];
    for (const [key, address] of addresses) {
      const info = metadata.get(key);
      // Without decimals a token cannot be quoted or displayed correctly; Across lists none for it.
      if (!info) continue;
      const priceUSD = toDecimalString(info.priceUsd);
      out.push({
        address,
        symbol: info.symbol,
        name: info.name,
        decimals: info.decimals,
        logoURI: info.logoUrl ?? '',
        ...(priceUSD !== undefined ? { priceUSD } : {}),
      });
    }
    return out;
  }

  /**
   * One route from the Swap API's /swap/approval (the migration guide's replacement for
   * /suggested-fees): Across builds the deposit and any approval itself, after checking the
   * wallet's allowance. Across bridges itself only, so the bridge lists have nothing to send.
   */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]> {
    // Across is EVM to EVM only.
    const originChainId = evmChainId(request.fromChain);
    const destinationChainId = evmChainId(request.toChain);
    if (originChainId === undefined || destinationChainId === undefined) return [];
    const depositor = evmAddress(request.fromAddress);
    const recipient = evmAddress(request.toAddress);
    const fromToken = evmAddress(request.fromToken);
    const toToken = evmAddress(request.toToken);
    if (!depositor || !recipient || !fromToken || !toToken) return [];
    const amount = request.fromAmount;

    // USD figures are a nicety: a metadata outage must not cost the caller the route.
    const usd = Promise.all([
      this.tokenMetadata(originChainId, signal).catch(() => undefined),
      this.tokenMetadata(destinationChainId, signal).catch(() => undefined),
    ]);
    let quote: SwapApproval;
    try {
      quote = await this.http.getJson<SwapApproval>(
        '/swap/approval',
        {
          tradeType: 'exactInput',
          amount,
          inputToken: fromToken,
          outputToken: toToken,
          originChainId,
          destinationChainId,
          depositor,
          recipient,
          slippage: request.slippage,
          integratorId: this.integratorId,
        },
        { signal },
      );
    } catch (err) {
      if (isNoRoute(err)) return [];
      throw err;
    }
    const tx = quote.swapTx;
    if (!tx?.to || !tx.data) return [];
    const spokePool = evmAddress(tx.to);
    if (!spokePool) throw new UpstreamError(NAME, 'unexpected answer: swapTx.to is not an address');
    const outputAmount = requireBigInt(quote.expectedOutputAmount, 'expectedOutputAmount');
    if (outputAmount <= 0n) return [];
    const minOutput =
      quote.minOutputAmount !== undefined
        ? requireBigInt(quote.minOutputAmount, 'minOutputAmount')
        : applySlippage(outputAmount, request.slippage);
    // Tokens such as USDT need approve(0) before a new allowance: two transactions a route cannot carry.
    if ((quote.approvalTxns?.length ?? 0) > 1) return [];
    const approvalTx = quote.approvalTxns?.[0];
    const allowance = quote.checks?.allowance;
    const spender =
      allowance?.spender && allowance.spender !== ZERO_ADDRESS ? evmAddress(allowance.spender) : undefined;
    const allowanceSufficient =
      allowance !== undefined && toIntegerString(allowance.actual) !== undefined && !approvalTx
        ? BigInt(toIntegerString(allowance.actual) as string) >= amount
        : false;

    const [originTokens, destinationTokens] = await usd;
    const inInfo = originTokens?.get(fromToken.toLowerCase());
    const outInfo = destinationTokens?.get(toToken.toLowerCase());
    const inUsd = (value: bigint) => (inInfo ? usdValue(value, inInfo.decimals, inInfo.priceUsd) : undefined) ?? '0';
    const chainId = tx.chainId ?? originChainId;
    return [
      {
        fromChain: request.fromChain,
        toChain: request.toChain,
        fromToken: request.fromToken,
        toToken: request.toToken,
        fromAmount: (quote.inputAmount !== undefined
          ? requireBigInt(quote.inputAmount, 'inputAmount')
          : amount
        ).toString(),
        toAmount: outputAmount.toString(),
        toAmountMin: minOutput.toString(),
        gasCostUSD: toDecimalString(quote.fees?.originGas?.amountUsd) ?? '0',
        feeCostUSD: toDecimalString(quote.fees?.total?.amountUsd) ?? '0',
        fromAmountUSD: inUsd(amount),
        toAmountUSD: (outInfo ? usdValue(outputAmount, outInfo.decimals, outInfo.priceUsd) : undefined) ?? '0',
        bridgeProvider: NAME,
        aggregator: NAME,
        estimatedTimeSeconds: Math.max(0, Math.round(quote.expectedFillTime ?? 0)),
        transactionData: {
          from: depositor,
          to: spokePool,
          data: tx.data,
          value: toIntegerString(tx.value) ?? '0',
          gasLimit: toIntegerString(tx.gas) ?? '0',
          gasPrice: toIntegerString(tx.gasPrice) ?? toIntegerString(tx.maxFeePerGas) ?? '0',
          chainId,
        },
        ...(spender ? { approvalAddress: spender } : {}),
        ...(approvalTx
          ? {
              approvalTransaction: {
                from: depositor,
                to: approvalTx.to,
                data: approvalTx.data,
                value: '0',
                gasLimit: toIntegerString(approvalTx.gas) ?? '0',
                gasPrice: '0',
                chainId: approvalTx.chainId ?? chainId,
              },
            }
          : {}),
        tracking: {
          originChainId,
          destinationChainId,
          spokePool,
          ...(quote.id ? { quoteId: quote.id } : {}),
          allowanceSufficient,
        },
      },
    ];
  }

  async transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    if (query.fromChain !== undefined && evmChainId(query.fromChain) === undefined) return null;
    let body: DepositStatus;
    try {
      // The reference documents the hash parameter as `depositTxnRef` (formerly `depositTxHash`).
      body = await this.http.getJson<DepositStatus>(
        '/deposit/status',
        { depositTxnRef: query.txHash },
        { signal: query.signal },
      );
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return null;
      throw err;
    }
    if (typeof body?.status !== 'string') throw new UpstreamError(NAME, 'deposit status answer without a status');
    const { status, message } = mapStatus(body.status);
    // Across's states (filled, pending, expired, refunded) as substatus, in LI.FI's upper case.
    const answer: ProviderStatusAnswer = { status, bridge: NAME, substatus: body.status.toUpperCase(), message };
    const originChainId = body.originChainId ?? (query.fromChain ? evmChainId(query.fromChain) : undefined);
    const fromTx = txInfo(body.depositTxnRef ?? body.depositTxHash ?? query.txHash, originChainId);
    if (fromTx) answer.fromTx = fromTx;
    const toTx = txInfo(body.fillTxnRef ?? body.fillTx, body.destinationChainId);
    if (toTx) answer.toTx = toTx;
    return answer;
  }

  private async routes(signal?: AbortSignal): Promise<AcrossRoute[]> {
    const body = await this.http.getJson<AcrossRoute[]>('/available-routes', {}, { signal });
    if (!Array.isArray(body)) throw new UpstreamError(NAME, 'unexpected answer: available-routes is not a list');
    return body;
  }

  /** Token metadata of one chain, keyed by lower-case address; shared by concurrent callers. */
  private tokenMetadata(chainId: number, signal?: AbortSignal): Promise<Map<string, AcrossTokenInfo>> {
    const cached = this.metadata.get(chainId);
    if (cached && this.now() - cached.at < this.metadataTtlMs) return cached.tokens;
    const tokens = this.http.getJson<AcrossTokenInfo[]>('/swap/tokens', { chainId }, { signal }).then((list) => {
      if (!Array.isArray(list)) throw new UpstreamError(NAME, 'unexpected answer: swap/tokens is not a list');
      const byAddress = new Map<string, AcrossTokenInfo>();
      for (const t of list) {
        if (t.chainId !== chainId || typeof t.address !== 'string' || !Number.isInteger(t.decimals)) continue;
        const key = t.address.toLowerCase();
        if (!byAddress.has(key)) byAddress.set(key, t);
      }
      return byAddress;
    });
    this.metadata.set(chainId, { at: this.now(), tokens });
    // A failed lookup must not be served from the cache to the next caller.
    tokens.catch(() => {
      if (this.metadata.get(chainId)?.tokens === tokens) this.metadata.delete(chainId);
    });
    return tokens;
  }
}

function mapStatus(status: string): { status: BridgeStatusValue; message: string } {
  switch (status) {
    case 'filled':
      return { status: 'DONE', message: 'Filled on the destination chain' };
    case 'pending':
      return { status: 'PENDING', message: 'Waiting for a relayer to fill the deposit' };
    case 'expired':
      return { status: 'FAILED', message: 'The deposit expired unfilled; it is refunded on the origin chain' };
    case 'refunded':
      return { status: 'FAILED', message: 'The deposit was not filled and has been refunded on the origin chain' };
    default:
      // Intermediate states the indexer may add (e.g. a requested slow fill) are still in flight.
      return { status: 'PENDING', message: `Across reports "${status}"` };
  }
}

/**
 * Across's status API names transactions only by hash: gas and block time are not reported, so they
 * read as "0" rather than being guessed.
 */
function txInfo(hash: string | null | undefined, chainId: number | undefined): TxInfo | undefined {
  if (!hash || chainId === undefined) return undefined;
  return {
    txHash: hash,
    txLink: explorerTxLink(`eip155:${chainId}`, hash) ?? '',
    chainId,
    gasUsed: '0',
    gasPrice: '0',
    timestamp: 0,
  };
}

function evmChainId(caip2Id: string): number | undefined {
  const m = /^eip155:([1-9]\d{0,15})$/.exec(caip2Id);
  return m ? Number(m[1]) : undefined;
}

/** Checksummed address, or undefined for anything that is not a 20-byte EVM address. */
function evmAddress(value: string): Address.Address | undefined {
  if (!Address.validate(value, { strict: false })) return undefined;
  return value.toLowerCase() === ZERO_ADDRESS ? ZERO_ADDRESS : Address.checksum(value.toLowerCase());
}

function applySlippage(amount: bigint, slippage: number): bigint {
  const ppm = BigInt(Math.min(1_000_000, Math.max(0, Math.round(slippage * 1_000_000))));
  return (amount * (1_000_000n - ppm)) / 1_000_000n;
}

function isNoRoute(err: unknown): boolean {
  if (!(err instanceof UpstreamHttpError)) return false;
  if (err.status === 404) return true;
  const code = (err.body as { code?: unknown } | null)?.code;
  return err.isClientError && typeof code === 'string' && NO_ROUTE_CODES.has(code);
}

function requireBigInt(value: unknown, what: string): bigint {
  const v = toIntegerString(value);
  if (v === undefined) throw new UpstreamError(NAME, `unexpected answer: ${what} is not an integer amount`);
  return BigInt(v);
}

function disabledProvider(status: ProviderStatus): BridgeProvider {
  const refuse = async (): Promise<never> => {
    throw new UpstreamError(NAME, status.enabled ? 'disabled' : status.reason);
  };
  return { name: NAME, status, chains: refuse, tokens: refuse, quote: refuse, transferStatus: refuse };
}
