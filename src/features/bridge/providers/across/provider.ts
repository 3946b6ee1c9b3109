import { type Address, encodeFunctionData, getAddress, isAddress } from 'viem';
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
import { SPOKE_POOL_DEPOSIT_V3_ABI, SPOKE_POOLS, WRAPPED_NATIVE } from './contracts.js';

export const ACROSS_DEFAULT_BASE_URL = 'https://app.across.to/api';
const NAME = 'across';
const ZERO_ADDRESS = NATIVE_EVM as Address;

export interface AcrossProviderOptions {
  /** Defaults to Across's public API. */
  baseUrl?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  /** Longest answer body read; the HTTP client's default when unset. */
  maxBodyBytes?: number | undefined;
  enabled: boolean;
  /**
   * Seconds after the quote timestamp until an unfilled deposit expires and is refunded, used when
   * /suggested-fees does not give `fillDeadline`. It must stay under the SpokePool's
   * fillDeadlineBuffer or the deposit reverts; fills normally land within seconds to minutes.
   */
  fillDeadlineSeconds?: number;
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

interface FeeComponent {
  pct: string;
  total: string;
}

/** /suggested-fees answer; older deployments name the fill time `estimatedFillTimeSec`, the reference `expectedFillTimeSec`. */
interface SuggestedFees {
  totalRelayFee: FeeComponent;
  timestamp: string | number;
  isAmountTooLow?: boolean;
  exclusiveRelayer?: string;
  exclusivityDeadline?: string | number;
  spokePoolAddress?: string;
  estimatedFillTimeSec?: number;
  expectedFillTimeSec?: number;
  outputAmount?: string;
  fillDeadline?: string | number;
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
const NO_ROUTE_CODES = new Set(['ROUTE_NOT_ENABLED', 'AMOUNT_TOO_LOW', 'AMOUNT_TOO_HIGH']);

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
    ...options.http,
  });
  return new AcrossProvider(
    http,
    options.fillDeadlineSeconds ?? 3_600,
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
    private readonly fillDeadlineSeconds: number,
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
    const nativeInput = fromToken === ZERO_ADDRESS;
    const inputToken = nativeInput ? WRAPPED_NATIVE[originChainId] : fromToken;
    const outputToken = toToken === ZERO_ADDRESS ? WRAPPED_NATIVE[destinationChainId] : toToken;
    if (!inputToken || !outputToken) return [];
    const amount = request.fromAmount;

    // USD figures are a nicety: a metadata outage must not cost the caller the route.
    const usd = Promise.all([
      this.tokenMetadata(originChainId, signal).catch(() => undefined),
      this.tokenMetadata(destinationChainId, signal).catch(() => undefined),
    ]);
    let fees: SuggestedFees;
    try {
      fees = await this.http.getJson<SuggestedFees>(
        '/suggested-fees',
        { inputToken, outputToken, originChainId, destinationChainId, amount, recipient },
        { signal },
      );
    } catch (err) {
      if (isNoRoute(err)) return [];
      throw err;
    }
    if (fees.isAmountTooLow === true) return [];

    const totalFee = requireBigInt(fees.totalRelayFee?.total, 'totalRelayFee.total');
    const outputAmount =
      fees.outputAmount !== undefined ? requireBigInt(fees.outputAmount, 'outputAmount') : amount - totalFee;
    if (outputAmount <= 0n) return [];
    const quoteTimestamp = requireUint32(fees.timestamp, 'timestamp');
    const fillDeadline =
      fees.fillDeadline !== undefined
        ? requireUint32(fees.fillDeadline, 'fillDeadline')
        : quoteTimestamp + this.fillDeadlineSeconds;
    const exclusivityDeadline =
      fees.exclusivityDeadline !== undefined ? requireUint32(fees.exclusivityDeadline, 'exclusivityDeadline') : 0;
    const exclusiveRelayer = fees.exclusiveRelayer ? evmAddress(fees.exclusiveRelayer) : ZERO_ADDRESS;
    if (!exclusiveRelayer) throw new UpstreamError(NAME, 'unexpected answer: exclusiveRelayer is not an address');
    const spokePool = fees.spokePoolAddress ? evmAddress(fees.spokePoolAddress) : SPOKE_POOLS[originChainId];
    if (!spokePool) return [];

    const data = encodeFunctionData({
      abi: SPOKE_POOL_DEPOSIT_V3_ABI,
      functionName: 'depositV3',
      args: [
        depositor,
        recipient,
        inputToken,
        outputToken,
        amount,
        outputAmount,
        BigInt(destinationChainId),
        exclusiveRelayer,
        quoteTimestamp,
        fillDeadline,
        exclusivityDeadline,
        '0x',
      ],
    });

    const [originTokens, destinationTokens] = await usd;
    const inInfo = originTokens?.get(fromToken) ?? originTokens?.get(inputToken.toLowerCase());
    const outInfo = destinationTokens?.get(toToken) ?? destinationTokens?.get(outputToken.toLowerCase());
    const inUsd = (value: bigint) => (inInfo ? usdValue(value, inInfo.decimals, inInfo.priceUsd) : undefined) ?? '0';

    return [
      {
        fromChain: request.fromChain,
        toChain: request.toChain,
        fromToken: request.fromToken,
        toToken: request.toToken,
        fromAmount: amount.toString(),
        toAmount: outputAmount.toString(),
        // A relayer fills exactly outputAmount or the deposit is refunded, so this is a conservative
        // floor, reported with the caller's slippage like every other provider's routes.
        toAmountMin: applySlippage(outputAmount, request.slippage).toString(),
        // Across quotes the destination gas it charges inside the relay fee; origin gas is not quoted.
        gasCostUSD: '0',
        feeCostUSD: inUsd(totalFee),
        fromAmountUSD: inUsd(amount),
        toAmountUSD: (outInfo ? usdValue(outputAmount, outInfo.decimals, outInfo.priceUsd) : undefined) ?? '0',
        bridgeProvider: NAME,
        estimatedTimeSeconds: Math.max(0, Math.round(fees.estimatedFillTimeSec ?? fees.expectedFillTimeSec ?? 0)),
        transactionData: {
          from: depositor,
          to: spokePool,
          data,
          value: nativeInput ? amount.toString() : '0',
          // Across quotes no origin gas; "0" tells the wallet to estimate.
          gasLimit: '0',
          gasPrice: '0',
          chainId: originChainId,
        },
        tracking: {
          originChainId,
          destinationChainId,
          spokePool,
          inputToken,
          outputToken,
          outputAmount: outputAmount.toString(),
          quoteTimestamp,
          fillDeadline,
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
    const answer: ProviderStatusAnswer = { status, bridge: NAME, substatus: body.status, message };
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
function evmAddress(value: string): Address | undefined {
  if (!isAddress(value, { strict: false })) return undefined;
  return value.toLowerCase() === ZERO_ADDRESS ? ZERO_ADDRESS : getAddress(value.toLowerCase());
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

function requireUint32(value: unknown, what: string): number {
  const v = toIntegerString(value);
  const n = v === undefined ? Number.NaN : Number(v);
  if (!Number.isSafeInteger(n) || n > 0xffffffff)
    throw new UpstreamError(NAME, `unexpected answer: ${what} is not a uint32`);
  return n;
}

function disabledProvider(status: ProviderStatus): BridgeProvider {
  const refuse = async (): Promise<never> => {
    throw new UpstreamError(NAME, status.enabled ? 'disabled' : status.reason);
  };
  return { name: NAME, status, chains: refuse, tokens: refuse, quote: refuse, transferStatus: refuse };
}
