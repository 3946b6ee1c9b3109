import type * as MayanSdk from '@mayanfinance/swap-sdk';
import type * as SolanaWeb3 from '@solana/web3.js';
import { chainById, explorerTxLink, NATIVE_EVM, NATIVE_SOLANA } from '../../../../platform/chains/registry.js';
import {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  toIntegerString,
  UpstreamHttpError,
} from '../../../../platform/upstream/index.js';
import { disabled, enabled, type ProviderStatus, UpstreamError } from '../../../../platform/upstream/status.js';
import { LIFI_SOLANA_CHAIN_ID } from '../lifi/chains.js';
import type {
  BridgeChain,
  BridgeProvider,
  BridgeStatusValue,
  BridgeToken,
  ProviderRoute,
  ProviderStatusAnswer,
  QuoteRequest,
  StatusQuery,
  TransactionData,
  TxInfo,
} from '../types.js';
import { MAYAN_CHAINS, type MayanChain, mayanChainByCaip2, mayanChainByWormholeId } from './chains.js';

export const MAYAN_DEFAULT_PRICE_URL = 'https://price-api.mayan.finance/v3';
export const MAYAN_DEFAULT_EXPLORER_URL = 'https://explorer-api.mayan.finance/v3';
const NAME = 'mayan';
/** Mayan writes every chain's native token (ETH, SOL…) as the EVM zero address. */
const MAYAN_NATIVE = '0x0000000000000000000000000000000000000000';
/** A Solana blockhash is accepted for about 150 slots; the route says so rather than fail later. */
const SOLANA_BLOCKHASH_LIFETIME_SECONDS = 60;

type Sdk = typeof MayanSdk;
type Quote = MayanSdk.Quote;

export interface MayanProviderOptions {
  enabled: boolean;
  /** Mayan's price API (quotes, tokens); defaults to Mayan's public v3 host. */
  priceUrl?: string | undefined;
  /** Mayan's explorer API (status); defaults to Mayan's public v3 host. */
  explorerUrl?: string | undefined;
  /** Sent as the `apiKey` query parameter of quotes (lifts Mayan's per-IP rate limit). */
  apiKey?: string | undefined;
  /** Solana JSON-RPC for Solana-source routes; without it only EVM-source routes are quoted. */
  solanaRpcUrl?: string | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
  maxBodyBytes?: number | undefined;
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep'>;
  /** The swap SDK, loaded on first use when not given (tests pass it to reuse one copy). */
  loadSdk?: () => Promise<Sdk>;
}

/** `GET {explorer}/swap/trx/{hash}` (explorer-api.mayan.finance); only what we read. */
interface MayanSwap {
  status?: string;
  clientStatus?: string;
  sourceTxHash?: string;
  sourceChain?: string | number;
  destChain?: string | number;
  fulfillTxHash?: string | null;
  refundTxHash?: string | null;
  initiatedAt?: string;
}

/** `GET {price}/tokens?chain=` element (the SDK's Token). */
interface MayanToken {
  name: string;
  symbol: string;
  contract: string;
  mint?: string;
  decimals: number;
  logoURI?: string;
}

export function createMayanProvider(options: MayanProviderOptions): BridgeProvider {
  if (!options.enabled) {
    return disabledProvider(
      disabled(
        'Mayan is not configured: set MAYAN_PRICE_API_URL and MAYAN_EXPLORER_API_URL, or MAYAN_ENABLED=true for Mayan’s public APIs',
      ),
    );
  }
  const common = {
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...options.http,
  };
  const priceUrl = options.priceUrl ?? MAYAN_DEFAULT_PRICE_URL;
  const explorerUrl = options.explorerUrl ?? MAYAN_DEFAULT_EXPLORER_URL;
  return new MayanProvider(
    createHttpClient({ name: NAME, baseUrl: priceUrl, ...common }),
    createHttpClient({ name: NAME, baseUrl: explorerUrl, ...common }),
    { ...options, priceUrl, explorerUrl },
  );
}

class MayanProvider implements BridgeProvider {
  readonly name = NAME;
  readonly status: ProviderStatus = enabled;
  private sdk: Promise<Sdk> | undefined;
  private connection: SolanaWeb3.Connection | undefined;

  constructor(
    private readonly price: HttpClient,
    private readonly explorer: HttpClient,
    private readonly options: MayanProviderOptions & { priceUrl: string; explorerUrl: string },
  ) {
    // Loading the SDK takes about a second; started now, the first quote does not spend its deadline on it.
    void this.loadSdk();
  }

  async chains(): Promise<BridgeChain[]> {
    // Mayan has no chain-list endpoint: its SDK hard-codes the chains, and so does chains.ts.
    return MAYAN_CHAINS.map((c) => {
      const known = chainById(c.caip2Id);
      return {
        caip2Id: c.caip2Id,
        name: known?.name ?? c.displayName,
        nativeToken: known?.nativeToken ?? c.nativeToken,
        logoURI: known?.logoURI ?? '',
        isBridgeSupported: true,
      };
    });
  }

  async tokens(caip2Id: string, signal?: AbortSignal): Promise<BridgeToken[]> {
    const chain = mayanChainByCaip2(caip2Id);
    if (!chain) return [];
    const body = await this.price.getJson<Record<string, MayanToken[]>>(
      '/tokens',
      { chain: chain.name, nonPortal: false },
      { signal },
    );
    const list = body?.[chain.name];
    if (!Array.isArray(list)) throw new UpstreamError(NAME, `unexpected answer: tokens.${chain.name} is not a list`);
    return list
      .filter((t) => Number.isInteger(t.decimals) && typeof t.contract === 'string')
      .map((t) => ({
        address: fromMayanToken(t.contract, chain),
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        logoURI: t.logoURI ?? '',
      }));
  }

  /**
   * Mayan's quotes from `GET {price}/quote` with the parameters its SDK sends, then each quote's
   * source transaction built locally by the SDK: the forwarder call on EVM, a versioned transaction
   * on Solana (which needs a Solana RPC for the lookup tables and a blockhash).
   */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<ProviderRoute[]> {
    const from = mayanChainByCaip2(request.fromChain);
    const to = mayanChainByCaip2(request.toChain);
    if (!from || !to || from === to) return [];
    // Mayan bridges itself only; a request that excludes it gets nothing without asking.
    if (!nameAllowed(request)) return [];
    if (from.family === 'solana' && !this.options.solanaRpcUrl) return [];
    const sdk = await this.loadSdk();
    let body: { quotes?: Quote[]; minimumSdkVersion?: number[] };
    try {
      body = await this.price.getJson('/quote', this.quoteQuery(sdk, request, from, to), { signal });
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return [];
      throw err;
    }
    const minimum = body?.minimumSdkVersion;
    // The SDK's own check (it throws code 9999 "Swap SDK is outdated!"): transactions it would build
    // for quotes of a newer protocol version could lose funds, so none are offered.
    if (Array.isArray(minimum) && !sdk.checkSdkVersionSupport(minimum as [number, number, number])) {
      throw new UpstreamError(
        NAME,
        `Mayan requires swap SDK ${minimum.join('.')} or newer; @mayanfinance/swap-sdk ${sdk.getSdkVersion().replaceAll('_', '.')} is installed`,
      );
    }
    if (!Array.isArray(body?.quotes)) throw new UpstreamError(NAME, 'unexpected answer: quotes is not a list');
    const quotes = body.quotes.filter((q) => !q.gasless).slice(0, request.maxRoutes);
    const settled = await Promise.allSettled(quotes.map((q) => this.toRoute(sdk, q, request, from)));
    const routes: ProviderRoute[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'fulfilled' && outcome.value) routes.push(outcome.value);
    }
    const failure = settled.find((o) => o.status === 'rejected');
    if (routes.length === 0 && failure) {
      throw new UpstreamError(NAME, 'no quote could be turned into a transaction', { cause: failure.reason });
    }
    return routes;
  }

  async transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    const quoted = query.tracking?.quoteType !== undefined;
    let body: MayanSwap;
    try {
      body = await this.explorer.getJson<MayanSwap>(
        `/swap/trx/${encodeURIComponent(query.txHash)}`,
        {},
        {
          signal: query.signal,
        },
      );
    } catch (err) {
      // The explorer answers 404 until it has indexed the source transaction.
      if (err instanceof UpstreamHttpError && err.status === 404) {
        return quoted
          ? {
              status: 'PENDING',
              bridge: NAME,
              substatus: 'NOT_INDEXED',
              message: 'Mayan has not indexed the source transaction yet',
            }
          : { status: 'NOT_FOUND', bridge: NAME };
      }
      throw err;
    }
    if (typeof body?.clientStatus !== 'string') {
      throw new UpstreamError(NAME, 'swap answer without a clientStatus');
    }
    const mapped = mapStatus(body.clientStatus);
    const answer: ProviderStatusAnswer = { status: mapped.status, bridge: NAME, message: mapped.message };
    // Final states keep cipgate's words (COMPLETED, REFUNDED); in flight, Mayan's fine-grained state
    // (ORDER_SUBMITTED, …) says where the transfer is. Either way the fine-grained state is in the message.
    const substatus = mapped.substatus ?? body.status;
    if (substatus) answer.substatus = substatus;
    if (body.status) answer.substatusMessage = `Mayan reports ${body.status}`;
    const fromTx = txInfo(body.sourceTxHash ?? query.txHash, body.sourceChain);
    if (fromTx) answer.fromTx = fromTx;
    const toTx = txInfo(body.fulfillTxHash, body.destChain);
    if (toTx) answer.toTx = toTx;
    return answer;
  }

  private quoteQuery(sdk: Sdk, request: QuoteRequest, from: MayanChain, to: MayanChain) {
    return {
      // The SDK's defaults (generateFetchQuoteUrl), except gasless: a gasless order is a signature
      // submitted to Mayan, not a transaction the caller sends.
      wormhole: true,
      swift: true,
      mctp: true,
      shuttle: false,
      fastMctp: true,
      gasless: false,
      onlyDirect: false,
      fullList: request.maxRoutes > 2,
      monoChain: true,
      solanaProgram: sdk.addresses.MAYAN_PROGRAM_ID,
      forwarderAddress: sdk.addresses.MAYAN_FORWARDER_CONTRACT,
      amountIn64: request.fromAmount.toString(),
      fromToken: toMayanToken(request.fromToken, from),
      fromChain: from.name,
      toToken: toMayanToken(request.toToken, to),
      toChain: to.name,
      slippageBps: Math.round(request.slippage * 10_000),
      destinationAddress: request.toAddress,
      sdkVersion: sdk.getSdkVersion(),
      apiKey: this.options.apiKey,
    };
  }

  private async toRoute(
    sdk: Sdk,
    quote: Quote,
    request: QuoteRequest,
    from: MayanChain,
  ): Promise<ProviderRoute | null> {
    const toAmount = toIntegerString(quote.expectedAmountOutBaseUnits);
    const toAmountMin = toIntegerString(quote.minReceivedBaseUnits);
    const fromAmount = toIntegerString(quote.effectiveAmountIn64);
    if (!toAmount || !toAmountMin || !fromAmount) {
      throw new UpstreamError(NAME, 'unexpected answer: a quote without base-unit amounts');
    }
    const deadline = Number(quote.deadline64);
    // An order past its deadline is refunded, not filled: no route.
    if (deadline > 0 && deadline <= Date.now() / 1000) return null;
    const base = {
      fromChain: request.fromChain,
      toChain: request.toChain,
      fromToken: request.fromToken,
      toToken: request.toToken,
      fromAmount,
      toAmount,
      toAmountMin,
      // Mayan prices relayer fees in tokens, not USD; nothing is invented.
      gasCostUSD: '0',
      feeCostUSD: '0',
      fromAmountUSD: '0',
      toAmountUSD: '0',
      bridgeProvider: NAME,
      aggregator: NAME,
      estimatedTimeSeconds: Math.max(0, Math.round(Number(quote.etaSeconds) || 0)),
      tracking: {
        quoteType: quote.type,
        ...(quote.quoteId ? { quoteId: quote.quoteId } : {}),
        fromChain: quote.fromChain,
        toChain: quote.toChain,
      },
    };
    if (from.family === 'solana') {
      const built = await this.solanaTransaction(sdk, quote, request);
      if (!built) return null;
      const expiresAt = Math.floor(Date.now() / 1000) + SOLANA_BLOCKHASH_LIFETIME_SECONDS;
      return {
        ...base,
        transactionData: built.transactionData,
        serializedTransaction: built.transactionData.data,
        expiresAt: deadline > 0 ? Math.min(deadline, expiresAt) : expiresAt,
      };
    }
    // SHUTTLE is not buildable on EVM (the SDK says so); gasless was not asked for.
    if (quote.type === 'SHUTTLE') return null;
    const chainId = Number(request.fromChain.slice('eip155:'.length));
    const tx = await sdk.getSwapFromEvmTxPayload(
      quote,
      request.fromAddress,
      request.toAddress,
      null,
      request.fromAddress,
      chainId,
      null,
      null,
    );
    const to = typeof tx.to === 'string' ? tx.to : undefined;
    if (!to || typeof tx.data !== 'string') throw new UpstreamError(NAME, 'the SDK built no forwarder transaction');
    return {
      ...base,
      transactionData: {
        from: request.fromAddress,
        to,
        data: tx.data,
        value: toIntegerString(tx.value) ?? '0',
        gasLimit: '0',
        gasPrice: '0',
        chainId,
      },
      // The forwarder pulls ERC-20 sources (`forwardERC20` → transferFrom): it is the spender.
      approvalAddress: to,
      ...(deadline > 0 ? { expiresAt: deadline } : {}),
    };
  }

  /**
   * The SDK's instructions as one unsigned v0 transaction paid by the caller. Quotes whose
   * instructions need other signers or a second transaction are left out: one route carries one
   * transaction the caller's wallet signs alone.
   */
  private async solanaTransaction(
    sdk: Sdk,
    quote: Quote,
    request: QuoteRequest,
  ): Promise<{ transactionData: TransactionData } | null> {
    const web3 = await import('@solana/web3.js');
    const connection = this.solanaConnection(web3);
    const { instructions, signers, lookupTables, swapMessageV0Params } = await sdk.createSwapFromSolanaInstructions(
      quote,
      request.fromAddress,
      request.toAddress,
      null,
      connection,
    );
    if (signers.length > 0 || swapMessageV0Params) return null;
    const { blockhash } = await connection.getLatestBlockhash('confirmed');
    const message = new web3.TransactionMessage({
      payerKey: new web3.PublicKey(request.fromAddress),
      recentBlockhash: blockhash,
      instructions,
    }).compileToV0Message(lookupTables);
    const serialized = Buffer.from(new web3.VersionedTransaction(message).serialize()).toString('base64');
    return {
      transactionData: {
        from: request.fromAddress,
        to: request.fromAddress,
        data: serialized,
        value: '0',
        gasLimit: '0',
        gasPrice: '0',
        chainId: LIFI_SOLANA_CHAIN_ID,
      },
    };
  }

  private solanaConnection(web3: typeof SolanaWeb3): SolanaWeb3.Connection {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    this.connection ??= new web3.Connection(this.options.solanaRpcUrl as string, {
      commitment: 'confirmed',
      disableRetryOnRateLimit: true,
      // The SDK passes no signal: each RPC call gets the provider timeout (the quote's deadline still bounds it).
      fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
    });
    return this.connection;
  }

  /**
   * The swap SDK, loaded on first use. Its base URLs live in its exported `addresses` object, which
   * its functions read at call time; it is one object per process, so every Mayan provider in the
   * process shares the last URLs set (cipgate builds one).
   */
  private loadSdk(): Promise<Sdk> {
    this.sdk ??= (this.options.loadSdk ?? (() => import('@mayanfinance/swap-sdk')))().then((sdk) => {
      sdk.addresses.PRICE_URL = this.options.priceUrl;
      sdk.addresses.EXPLORER_URL = this.options.explorerUrl;
      return sdk;
    });
    // A failed load must not stick: the next quote tries again.
    this.sdk.catch(() => {
      this.sdk = undefined;
    });
    return this.sdk;
  }
}

function mapStatus(clientStatus: string): { status: BridgeStatusValue; substatus?: string; message: string } {
  switch (clientStatus) {
    case 'COMPLETED':
      // COMPLETED is what cipgate's progress reads as "delivered as quoted" (100).
      return { status: 'DONE', substatus: 'COMPLETED', message: 'Delivered on the destination chain' };
    case 'REFUNDED':
      return { status: 'FAILED', substatus: 'REFUNDED', message: 'The swap was not filled and has been refunded' };
    case 'INPROGRESS':
      return { status: 'PENDING', message: 'In flight' };
    default:
      // A client status added later is most likely another in-flight one; PENDING keeps clients polling.
      return { status: 'PENDING', substatus: clientStatus, message: `Mayan reports "${clientStatus}"` };
  }
}

function txInfo(hash: string | null | undefined, wormholeChain: unknown): TxInfo | undefined {
  const chain = mayanChainByWormholeId(wormholeChain);
  if (!hash || !chain) return undefined;
  const evm = /^eip155:(\d+)$/.exec(chain.caip2Id);
  return {
    txHash: hash,
    txLink: explorerTxLink(chain.caip2Id, hash) ?? '',
    chainId: evm ? Number(evm[1]) : LIFI_SOLANA_CHAIN_ID,
    gasUsed: '0',
    gasPrice: '0',
    timestamp: 0,
  };
}

function nameAllowed(request: QuoteRequest): boolean {
  const named = (list: string[]) => list.some((b) => b.toLowerCase() === NAME);
  if (request.allowBridges.length > 0 && !named(request.allowBridges)) return false;
  return !named(request.denyBridges);
}

/** Our native tokens (EVM zero address, Solana's system program) as Mayan writes them, and back. */
function toMayanToken(token: string, chain: MayanChain): string {
  const native = chain.family === 'solana' ? NATIVE_SOLANA : NATIVE_EVM;
  return token.toLowerCase() === native.toLowerCase() ? MAYAN_NATIVE : token;
}

function fromMayanToken(token: string, chain: MayanChain): string {
  if (token.toLowerCase() !== MAYAN_NATIVE) return token;
  return chain.family === 'solana' ? NATIVE_SOLANA : NATIVE_EVM;
}

function disabledProvider(status: ProviderStatus): BridgeProvider {
  const refuse = async (): Promise<never> => {
    throw new UpstreamError(NAME, status.enabled ? 'disabled' : status.reason);
  };
  return { name: NAME, status, chains: refuse, tokens: refuse, quote: refuse, transferStatus: refuse };
}
