/**
 * `sandbox`: the bridge provider cipgate embeds by default and uses offline. It lists the catalogue
 * seed and quotes deterministically from the committed price snapshot; its transactions are
 * well-formed for the source chain but go to sandbox deposit addresses that are not bridges (see
 * `addresses.ts`). Nothing here touches the network.
 *
 * Fee model, all of it deducted from the input amount before conversion:
 * - relayer fee: RELAYER_FEE_BPS of the input;
 * - swap fee: SWAP_FEE_BPS more when the two tokens are different assets (USDC → DAI), none when they
 *   are the same asset in any wrapping (ETH → WETH, USDC → USDC.e);
 * - fill cost: the destination's `fillCostUSD`, what the relayer pays to deliver there.
 * The source transaction's gas (`gasCostUSD`) is paid by the sender on top, as on real bridges.
 */
import { chainById, explorerTxLink, type KnownChain } from '../../../../platform/chains/registry.js';
import { enabled } from '../../../../platform/upstream/status.js';
import {
  assetOf,
  findSeedToken,
  nativeTokenAddress,
  priceOf,
  seedChains,
  seedTokens,
} from '../catalogue-seed/index.js';
import type {
  BridgeChain,
  BridgeProvider,
  BridgeToken,
  ProviderRoute,
  ProviderStatusAnswer,
  QuoteRequest,
  StatusQuery,
  TxInfo,
} from '../types.js';
import { isFamilyAddress, syntheticTxHash } from './addresses.js';
import {
  applySlippage,
  formatUsd,
  PRICE_DECIMALS,
  parseDecimal,
  parsePrice,
  pow10,
  unitsForUsd,
  usdValue,
} from './amounts.js';
import { numericChainId, sandboxChainParams } from './chain-params.js';
import { depositTransaction } from './transaction.js';

export const SANDBOX_PROVIDER = 'sandbox';
export const RELAYER_FEE_BPS = 6n;
export const SWAP_FEE_BPS = 25n;
/** How long after the quote a relayer may still fill; beyond it a real deposit would be refunded. */
export const FILL_DEADLINE_SECONDS = 4 * 60 * 60;

/** What the sandbox stores with a route to answer status later (kept server-side). */
export interface SandboxTracking {
  provider: typeof SANDBOX_PROVIDER;
  fromChain: string;
  toChain: string;
  /** ISO time of the quote; the sandbox assumes the deposit is sent right away. */
  quotedAt: string;
  estimatedTimeSeconds: number;
  gasLimit: string;
  gasPrice: string;
}

export interface SandboxOptions {
  now?: () => Date;
}

interface Side {
  chain: KnownChain;
  token: BridgeToken;
  price: bigint;
}

function side(caip2Id: string, address: string): Side | undefined {
  const chain = chainById(caip2Id);
  const token = findSeedToken(caip2Id, address);
  const price = token && priceOf(token.symbol);
  if (!chain || !token || price === undefined) return undefined;
  return { chain, token, price: parsePrice(price) };
}

function isTracking(value: unknown): value is SandboxTracking {
  const t = value as Partial<SandboxTracking> | undefined;
  return (
    t?.provider === SANDBOX_PROVIDER &&
    typeof t.fromChain === 'string' &&
    typeof t.toChain === 'string' &&
    typeof t.quotedAt === 'string' &&
    !Number.isNaN(Date.parse(t.quotedAt)) &&
    typeof t.estimatedTimeSeconds === 'number' &&
    typeof t.gasLimit === 'string' &&
    typeof t.gasPrice === 'string'
  );
}

export function createSandboxProvider(options: SandboxOptions = {}): BridgeProvider {
  const now = options.now ?? (() => new Date());

  async function quote(request: QuoteRequest): Promise<ProviderRoute[]> {
    // A bridge moves value between chains; same-chain swaps are another product.
    if (request.fromChain === request.toChain || request.fromAmount <= 0n) return [];
    const from = side(request.fromChain, request.fromToken);
    const to = side(request.toChain, request.toToken);
    const source = sandboxChainParams(request.fromChain);
    const destination = sandboxChainParams(request.toChain);
    if (!from || !to || !source || !destination) return [];
    const sourceChainId = numericChainId(from.chain);
    const destinationChainId = numericChainId(to.chain);
    if (sourceChainId === undefined || destinationChainId === undefined) return [];
    // Addresses that cannot exist on their chain get no route rather than an unsignable transaction.
    if (!isFamilyAddress(from.chain.family, request.fromAddress)) return [];
    if (!isFamilyAddress(to.chain.family, request.toAddress)) return [];

    const fromDecimals = from.token.decimals;
    const toDecimals = to.token.decimals;
    const feeBps = RELAYER_FEE_BPS + (assetOf(from.token.symbol) === assetOf(to.token.symbol) ? 0n : SWAP_FEE_BPS);
    const percentFee = (request.fromAmount * feeBps + 9_999n) / 10_000n;
    const fillFee = unitsForUsd(parseDecimal(destination.fillCostUSD, PRICE_DECIMALS), fromDecimals, from.price);
    const net = request.fromAmount - percentFee - fillFee;
    if (net <= 0n) return [];

    // Converting through USD at the snapshot prices: net × p_from / 10^d_from = to × p_to / 10^d_to.
    const toAmount = (net * from.price * pow10(toDecimals)) / (to.price * pow10(fromDecimals));
    if (toAmount <= 0n) return [];
    const toAmountMin = applySlippage(toAmount, request.slippage);

    const native = from.token.address === nativeTokenAddress(from.chain);
    const gasLimit = native ? source.nativeDepositGas : source.tokenDepositGas;
    const nativePrice = priceOf(from.chain.nativeToken);
    const gasCostUSD = nativePrice
      ? formatUsd(usdValue(gasLimit * source.gasPrice, from.chain.nativeDecimals, parsePrice(nativePrice)))
      : '0.00';

    const quotedAt = now();
    const quoteTimestamp = Math.floor(quotedAt.getTime() / 1000);
    const estimatedTimeSeconds = source.finalitySeconds + destination.fillSeconds;
    const transactionData = depositTransaction({
      source: from.chain,
      destination: to.chain,
      destinationChainId,
      depositor: request.fromAddress,
      recipient: request.toAddress,
      inputToken: from.token.address,
      outputToken: to.token.address,
      inputAmount: request.fromAmount,
      outputAmount: toAmountMin,
      quoteTimestamp,
      fillDeadline: quoteTimestamp + FILL_DEADLINE_SECONDS,
      native,
      gasLimit,
      gasPrice: source.gasPrice,
      chainId: sourceChainId,
    });
    const tracking: SandboxTracking = {
      provider: SANDBOX_PROVIDER,
      fromChain: request.fromChain,
      toChain: request.toChain,
      quotedAt: quotedAt.toISOString(),
      estimatedTimeSeconds,
      gasLimit: transactionData.gasLimit,
      gasPrice: transactionData.gasPrice,
    };
    return [
      {
        fromChain: request.fromChain,
        toChain: request.toChain,
        fromToken: from.token.address,
        toToken: to.token.address,
        fromAmount: request.fromAmount.toString(),
        toAmount: toAmount.toString(),
        toAmountMin: toAmountMin.toString(),
        gasCostUSD,
        feeCostUSD: formatUsd(usdValue(percentFee + fillFee, fromDecimals, from.price)),
        fromAmountUSD: formatUsd(usdValue(request.fromAmount, fromDecimals, from.price)),
        toAmountUSD: formatUsd(usdValue(toAmount, toDecimals, to.price)),
        bridgeProvider: SANDBOX_PROVIDER,
        aggregator: SANDBOX_PROVIDER,
        estimatedTimeSeconds,
        transactionData,
        // The sandbox's deposit contract pulls an ERC-20 source itself, so it is the spender.
        ...(!native && request.fromChain.startsWith('eip155:') ? { approvalAddress: transactionData.to } : {}),
        tracking: { ...tracking },
      },
    ];
  }

  function txInfo(caip2Id: string, txHash: string, gasUsed: string, gasPrice: string, at: Date): TxInfo {
    const chain = chainById(caip2Id);
    return {
      txHash,
      txLink: explorerTxLink(caip2Id, txHash) ?? '',
      chainId: (chain && numericChainId(chain)) ?? 0,
      gasUsed,
      gasPrice,
      timestamp: Math.floor(at.getTime() / 1000),
    };
  }

  /**
   * The sandbox has no chain to look at, so status follows the clock: PENDING until the quote's
   * estimated time has passed since it was quoted, then DONE with a synthetic fill transaction.
   * Only transfers quoted by the sandbox (its tracking) are known; anything else is null.
   */
  async function transferStatus(query: StatusQuery): Promise<ProviderStatusAnswer | null> {
    const tracking = query.tracking;
    if (!isTracking(tracking)) return null;
    const quotedAt = new Date(tracking.quotedAt);
    const doneAt = new Date(quotedAt.getTime() + tracking.estimatedTimeSeconds * 1000);
    const fromTx = txInfo(tracking.fromChain, query.txHash, tracking.gasLimit, tracking.gasPrice, quotedAt);
    if (now() < doneAt) {
      return {
        status: 'PENDING',
        substatus: 'WAIT_DESTINATION_TRANSACTION',
        bridge: SANDBOX_PROVIDER,
        fromTx,
        message: `Sandbox transfer in progress; completes at ${doneAt.toISOString()}.`,
      };
    }
    const toChain = chainById(tracking.toChain);
    const toHash = syntheticTxHash(toChain?.family ?? 'evm', `cipgate-sandbox-fill:${query.txHash}`);
    const fill = sandboxChainParams(tracking.toChain);
    // A fill moves tokens to the recipient, costing about what a token deposit costs on that chain.
    const fillGas = fill?.tokenDepositGas ?? 0n;
    return {
      status: 'DONE',
      substatus: 'COMPLETED',
      bridge: SANDBOX_PROVIDER,
      fromTx,
      toTx: txInfo(tracking.toChain, toHash, fillGas.toString(), (fill?.gasPrice ?? 0n).toString(), doneAt),
      message: 'Sandbox transfer completed (simulated: no funds moved on the destination chain).',
    };
  }

  return {
    name: SANDBOX_PROVIDER,
    status: enabled,
    async chains(): Promise<BridgeChain[]> {
      return seedChains();
    },
    async tokens(caip2Id: string): Promise<BridgeToken[]> {
      return seedTokens(caip2Id);
    },
    quote,
    transferStatus,
  };
}
