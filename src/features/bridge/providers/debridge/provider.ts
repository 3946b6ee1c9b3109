import { explorerTxLink, NATIVE_EVM } from '../../../../platform/chains/registry.js';
import {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  toDecimalString,
  toIntegerString,
  UpstreamHttpError,
} from '../../../../platform/upstream/index.js';
import { disabled, enabled, type ProviderStatus, UpstreamError } from '../../../../platform/upstream/status.js';
import { approvalTransaction, isNativeEvm } from '../../approval.js';
import { payerOf } from '../solana-transaction.js';
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
} from '../types.js';
import { caip2ToDebridgeChain, DEBRIDGE_SOLANA_CHAIN_ID, debridgeChainToCaip2 } from './chains.js';

export const DEBRIDGE_DEFAULT_BASE_URL = 'https://dln.debridge.finance/v1.0';
const NAME = 'debridge';

export interface DebridgeProviderOptions {
  /** Defaults to deBridge's public DLN API. */
  baseUrl?: string | undefined;
  /** Sent as the `accesstoken` query parameter; the API works without one, at lower rate limits. */
  accessToken?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  maxBodyBytes?: number | undefined;
  enabled: boolean;
  /** BRIDGE_FEE becomes the affiliate fee when an EVM recipient is set (DEBRIDGE_AFFILIATE_FEE_RECIPIENT). */
  integrator?: IntegratorSettings;
  affiliateFeeRecipient?: string | undefined;
  /** deBridge's numeric referral code (DEBRIDGE_REFERRAL_CODE). */
  referralCode?: number | undefined;
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep'>;
}

/** Token amount of the estimation (docs.debridge.com create-tx "Response Example"). */
interface DlnTokenAmount {
  address: string;
  chainId?: number;
  decimals?: number;
  symbol?: string;
  amount: string;
  recommendedAmount?: string;
  approximateUsdValue?: number | string;
  recommendedApproximateUsdValue?: number | string;
}

/** GET /dln/order/create-tx answer; only what we read. */
interface DlnCreateTx {
  estimation?: {
    srcChainTokenIn?: DlnTokenAmount;
    dstChainTokenOut?: DlnTokenAmount;
  };
  /** EVM: a call to DlnSource (also the ERC-20 spender); Solana: `data` alone, a 0x-hex serialized transaction. */
  tx?: { to?: string; data?: string; value?: string; allowanceTarget?: string };
  orderId?: string;
  fixFee?: string;
  protocolFeeApproximateUsdValue?: number | string;
  order?: { approximateFulfillmentDelay?: number };
}

interface DlnChainInfo {
  chainId: number;
  originalChainId?: number;
  chainName?: string;
}

interface DlnToken {
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoURI?: string | null;
}

export function createDebridgeProvider(options: DebridgeProviderOptions): BridgeProvider {
  if (!options.enabled) {
    return disabledProvider(
      disabled(
        'deBridge is not configured: set DEBRIDGE_ENABLED=true or DEBRIDGE_API_URL to enable the deBridge DLN upstream',
      ),
    );
  }
  const http = createHttpClient({
    name: NAME,
    baseUrl: options.baseUrl ?? DEBRIDGE_DEFAULT_BASE_URL,
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...options.http,
  });
  return new DebridgeProvider(http, options);
}

class DebridgeProvider implements BridgeProvider {
  readonly name = NAME;
  readonly status: ProviderStatus = enabled;

  constructor(
    private readonly http: HttpClient,
    private readonly options: DebridgeProviderOptions,
  ) {}

  private get auth(): { accesstoken?: string } {
    return this.options.accessToken ? { accesstoken: this.options.accessToken } : {};
  }

  async chains(signal?: AbortSignal): Promise<BridgeChain[]> {
    const body = await this.http.getJson<{ chains?: DlnChainInfo[] }>('/supported-chains-info', this.auth, { signal });
    const out: BridgeChain[] = [];
    for (const chain of expectArray(body?.chains, 'supported-chains-info.chains')) {
      const caip2Id = debridgeChainToCaip2(chain.chainId);
      if (!caip2Id) continue;
      // deBridge lists chain names only; the catalogue fills symbols and logos from its registry.
      out.push({ caip2Id, name: chain.chainName ?? caip2Id, nativeToken: '', logoURI: '', isBridgeSupported: true });
    }
    return out;
  }

  async tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]> {
    const chainId = caip2ToDebridgeChain(caip2Id);
    if (chainId === undefined) return [];
    const body = await this.http.getJson<{ tokens?: Record<string, DlnToken> }>(
      '/token-list',
      { chainId, ...this.auth },
      { signal },
    );
    const tokens = body?.tokens;
    if (tokens === null || typeof tokens !== 'object') {
      throw new UpstreamError(NAME, 'unexpected answer: token-list.tokens is not an object');
    }
    return Object.values(tokens)
      .filter((t) => typeof t?.address === 'string' && Number.isInteger(t.decimals))
      .map((t) => ({
        address: t.address,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        logoURI: t.logoURI ?? '',
      }));
  }

  /**
   * One DLN order from GET /dln/order/create-tx: the estimation and the transaction that places it.
   * The take amount is `auto` (deBridge sizes it to be fillable) and fixed in the order, so the
   * amount received is also the minimum. Operating expenses come out of the input
   * (`prependOperatingExpenses=false`) so the route spends exactly the amount asked.
   */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]> {
    if (!bridgeListsAllow(request)) return [];
    const srcChainId = caip2ToDebridgeChain(request.fromChain);
    const dstChainId = caip2ToDebridgeChain(request.toChain);
    if (srcChainId === undefined || dstChainId === undefined || srcChainId === dstChainId) return [];
    const fromSolana = srcChainId === DEBRIDGE_SOLANA_CHAIN_ID;
    const { fee } = this.options.integrator ?? {};
    const recipient = this.options.affiliateFeeRecipient;
    // The affiliate fee is paid on the source chain: an EVM recipient can only take it there.
    const affiliate =
      fee && recipient && !fromSolana
        ? { affiliateFeePercent: Math.round(fee * 1_000_000) / 10_000, affiliateFeeRecipient: recipient }
        : {};
    let body: DlnCreateTx;
    try {
      body = await this.http.getJson<DlnCreateTx>(
        '/dln/order/create-tx',
        {
          srcChainId,
          srcChainTokenIn: dlnToken(request.fromToken),
          srcChainTokenInAmount: request.fromAmount.toString(),
          dstChainId,
          dstChainTokenOut: dlnToken(request.toToken),
          dstChainTokenOutAmount: 'auto',
          dstChainTokenOutRecipient: request.toAddress,
          senderAddress: request.fromAddress,
          srcChainOrderAuthorityAddress: request.fromAddress,
          srcChainRefundAddress: request.fromAddress,
          dstChainOrderAuthorityAddress: request.toAddress,
          prependOperatingExpenses: 'false',
          ...(this.options.referralCode !== undefined ? { referralCode: this.options.referralCode } : {}),
          ...affiliate,
          ...this.auth,
        },
        { signal },
      );
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return [];
      throw err;
    }
    const route = this.toRoute(body, request, srcChainId, dstChainId);
    return route ? [route] : [];
  }

  async transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    let orderIds: string[];
    if (typeof query.tracking?.orderId === 'string') orderIds = [query.tracking.orderId];
    else {
      // Only a hash is known: the orders that transaction created (one, for a route of ours).
      const body = await this.http.getJson<{ orderIds?: unknown[] }>(
        `/dln/tx/${encodeURIComponent(query.txHash)}/order-ids`,
        this.auth,
        { signal: query.signal },
      );
      orderIds = expectArray(body?.orderIds, 'order-ids.orderIds')
        .map(orderIdOf)
        .filter((id) => id !== undefined);
    }
    const orderId = orderIds[0];
    if (!orderId) return null;
    let body: { orderId?: string; status?: string };
    try {
      body = await this.http.getJson(`/dln/order/${encodeURIComponent(orderId)}/status`, this.auth, {
        signal: query.signal,
      });
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return null;
      throw err;
    }
    if (typeof body?.status !== 'string') throw new UpstreamError(NAME, 'order status answer without a status');
    const { status, substatus, message } = mapDlnState(body.status);
    const answer: ProviderStatusAnswer = {
      status,
      substatus,
      bridge: NAME,
      message,
      substatusMessage: `deBridge order ${orderId}: ${body.status}`,
    };
    const fromChain = query.fromChain ? caip2ToDebridgeChain(query.fromChain) : undefined;
    if (query.fromChain && fromChain !== undefined) {
      answer.fromTx = {
        txHash: query.txHash,
        txLink: explorerTxLink(query.fromChain, query.txHash) ?? '',
        chainId: fromChain,
        gasUsed: '0',
        gasPrice: '0',
        timestamp: 0,
      };
    }
    return answer;
  }

  private toRoute(
    body: DlnCreateTx,
    request: QuoteRequest,
    srcChainId: number,
    dstChainId: number,
  ): ProviderRoute | null {
    const tokenIn = body?.estimation?.srcChainTokenIn;
    const tokenOut = body?.estimation?.dstChainTokenOut;
    if (!tokenIn || !tokenOut) throw new UpstreamError(NAME, 'unexpected answer: create-tx without an estimation');
    const tx = body.tx;
    // Without a transaction the answer is an estimation only: nothing a wallet can execute.
    if (!tx?.data) return null;
    const toAmount = requireInteger(tokenOut.amount, 'dstChainTokenOut.amount');
    const fromAmount = requireInteger(tokenIn.amount, 'srcChainTokenIn.amount');

    let transactionData: TransactionData;
    let serializedTransaction: string | undefined;
    let approval: { approvalAddress: string; approvalTransaction: TransactionData } | undefined;
    if (srcChainId === DEBRIDGE_SOLANA_CHAIN_ID) {
      if (!/^0x([0-9a-fA-F]{2})+$/.test(tx.data)) {
        throw new UpstreamError(NAME, 'unexpected answer: Solana tx.data is not hex');
      }
      const bytes = Buffer.from(tx.data.slice(2), 'hex');
      const payer = payerOf(bytes);
      if (payer === undefined) throw new UpstreamError(NAME, 'unexpected answer: tx.data is not a Solana transaction');
      // The wallet signs as fee payer: a transaction paid by someone else is not this sender's route.
      if (payer !== request.fromAddress) return null;
      serializedTransaction = bytes.toString('base64');
      transactionData = {
        from: request.fromAddress,
        to: '',
        data: serializedTransaction,
        value: '0',
        gasLimit: '0',
        gasPrice: '0',
        chainId: DEBRIDGE_SOLANA_CHAIN_ID,
      };
    } else {
      if (!tx.to) throw new UpstreamError(NAME, 'unexpected answer: create-tx without tx.to');
      // deBridge's internal id differs from the EIP-155 id on later chains; the wallet needs the latter.
      const chainId = Number(request.fromChain.slice('eip155:'.length));
      transactionData = {
        from: request.fromAddress,
        to: tx.to,
        data: tx.data,
        // The fix fee in native currency, plus the amount for a native source.
        value: toIntegerString(tx.value) ?? '0',
        gasLimit: '0',
        gasPrice: '0',
        chainId,
      };
      if (!isNativeEvm(request.fromToken)) {
        // DlnSource pulls the input token: it is the spender unless the API names another target.
        const spender = tx.allowanceTarget ?? tx.to;
        approval = {
          approvalAddress: spender,
          approvalTransaction: approvalTransaction(
            request.fromToken,
            spender,
            BigInt(fromAmount),
            request.fromAddress,
            chainId,
          ),
        };
      }
    }
    return {
      fromChain: request.fromChain,
      toChain: request.toChain,
      fromToken: request.fromToken,
      toToken: request.toToken,
      fromAmount,
      toAmount,
      toAmountMin: toAmount,
      gasCostUSD: '0',
      feeCostUSD: toDecimalString(body.protocolFeeApproximateUsdValue) ?? '0',
      fromAmountUSD: toDecimalString(tokenIn.approximateUsdValue) ?? '0',
      toAmountUSD: toDecimalString(tokenOut.recommendedApproximateUsdValue ?? tokenOut.approximateUsdValue) ?? '0',
      bridgeProvider: NAME,
      aggregator: NAME,
      estimatedTimeSeconds: Math.max(0, Math.round(Number(body.order?.approximateFulfillmentDelay) || 0)),
      transactionData,
      ...(serializedTransaction ? { serializedTransaction } : {}),
      ...(approval ?? {}),
      tracking: {
        ...(body.orderId ? { orderId: body.orderId } : {}),
        srcChainId,
        dstChainId,
        ...(body.fixFee !== undefined ? { fixFee: body.fixFee } : {}),
      },
    };
  }
}

/**
 * DLN order states (docs: None, Created, Fulfilled, SentUnlock, ClaimedUnlock, OrderCancelled,
 * SentOrderCancel, ClaimedOrderCancel). Fulfilled is final for the taker's side: the recipient has
 * the funds; a cancelled order refunds the maker.
 */
export function mapDlnState(state: string): { status: BridgeStatusValue; substatus: string; message: string } {
  switch (state) {
    case 'Fulfilled':
    case 'SentUnlock':
    case 'ClaimedUnlock':
      return { status: 'DONE', substatus: 'COMPLETED', message: 'The order was fulfilled on the destination chain' };
    case 'Created':
      return {
        status: 'PENDING',
        substatus: 'CREATED',
        message: 'The order is placed and waits for a solver to fill it',
      };
    case 'OrderCancelled':
    case 'SentOrderCancel':
    case 'ClaimedOrderCancel':
      return {
        status: 'FAILED',
        substatus: 'REFUNDED',
        message: 'The order was cancelled unfilled; the input is refunded to the sender on the source chain',
      };
    default:
      return {
        status: 'NOT_FOUND',
        substatus: state.toUpperCase(),
        message: `deBridge does not know the order (${state})`,
      };
  }
}

/** deBridge writes the native EVM token as the zero address. */
function dlnToken(token: string): string {
  return isNativeEvm(token) ? NATIVE_EVM : token;
}

/** `/dln/tx/{hash}/order-ids` lists plain strings; the stats API wraps ids as `{stringValue}`. */
function orderIdOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  const wrapped = (value as { stringValue?: unknown } | null)?.stringValue;
  return typeof wrapped === 'string' && wrapped !== '' ? wrapped : undefined;
}

/** LI.FI's semantics for the lists (case-blind names); DLN routes only through itself. */
function bridgeListsAllow(request: QuoteRequest): boolean {
  const named = (list: string[]) => list.some((b) => b.toLowerCase() === NAME);
  if (request.allowBridges.length > 0 && !named(request.allowBridges)) return false;
  return !named(request.denyBridges);
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
