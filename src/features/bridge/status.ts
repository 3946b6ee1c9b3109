/**
 * Transfer status: find the route the transaction executes (see `store.ts`), look at the source
 * transaction on chain where an RPC URL is configured, ask the provider(s), and answer in the spec's
 * terms. DONE and FAILED are final: they are cached and answered from the database from then on.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Hash, PublicClient } from 'viem';
import { chainById, explorerTxLink } from '../../platform/chains/registry.js';
import { badInput, notFound, quoted, upstreamUnavailable } from '../../platform/errors.js';
import { beforeDeadline } from './deadline.js';
import { isEnabled } from './provider-registry.js';
import type { SourceTxCheck } from './providers/onchain/index.js';
import type { BridgeProvider, BridgeStatusValue, ProviderStatusAnswer, TxInfo } from './providers/types.js';
import { type BridgeStore, evmTxFingerprint, type StoredRoute } from './store.js';
import type { BridgeStatus } from './types.js';
import { familyOf, normalizeTxHash, requireTxHash } from './validation.js';

export interface StatusArgs {
  txHash: string;
  bridge?: string | null | undefined;
  routeId?: string | null | undefined;
  partnerId: string | null;
  /** The request's one deadline, shared by the chain lookups and the providers asked. */
  deadline: AbortSignal;
}

export interface StatusOptions {
  /** CAIP-2 id → JSON-RPC URL (EVM_RPC_URLS). */
  rpcUrls: Record<string, string>;
  timeoutMs: number;
  now?: () => number;
  /** Provider names of the other world (sandbox vs live): never a bridge hint here. */
  foreignProviders?: readonly string[];
}

/** Bridge transactions typically take 2 to 10 minutes (spec, Limits): the middle when nothing better is known. */
const DEFAULT_DURATION_SECONDS = 300;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface OnChain {
  caip2Id: string;
  check: SourceTxCheck;
}

const RANK: Record<BridgeStatusValue, number> = { NOT_FOUND: 1, PENDING: 2, FAILED: 3, DONE: 3 };

export class BridgeStatusService {
  private readonly clients = new Map<string, PublicClient>();
  private readonly now: () => number;

  constructor(
    private readonly providers: readonly BridgeProvider[],
    private readonly store: BridgeStore,
    private readonly options: StatusOptions,
    private readonly log: Logger,
  ) {
    this.now = options.now ?? Date.now;
  }

  async status(args: StatusArgs): Promise<BridgeStatus> {
    const { provider: hint, tool: toolHint } = this.hintedProvider(args.bridge);
    requireTxHash(args.txHash);
    const txHash = normalizeTxHash(args.txHash);

    let route = args.routeId ? await this.claimRoute(args.routeId, txHash, args.partnerId) : undefined;
    route ??= this.ours(await this.store.routeByTx(txHash, args.partnerId));
    const routeBridge = route?.route.bridgeProvider.toLowerCase();
    if (route && hint && route.provider !== hint.name) {
      throw badInput(
        `bridge "${hint.name}" does not match the provider "${route.provider}" that quoted this transaction`,
      );
    }
    if (route && toolHint && routeBridge !== toolHint.toLowerCase()) {
      throw badInput(
        `bridge "${toolHint}" does not match the bridge "${routeBridge}" of the route quoted for this transaction`,
      );
    }

    const cached = await this.store.terminal(txHash, route?.provider ?? hint?.name ?? this.providerNames);
    if (cached) return cached.answer as BridgeStatus;

    const onChain = await this.lookOnChain(txHash, route, args.deadline);
    if (!route && onChain?.route) route = onChain.route;

    const fallbackBridge =
      route?.provider ?? hint?.name ?? (this.enabled.length === 1 ? this.enabled[0]?.name : undefined) ?? 'unknown';
    const sourceChain = route?.fromChain ?? onChain?.caip2Id;
    const skeleton = (): TxInfo => onChain?.check.txInfo ?? emptyTx(txHash, sourceChain);

    let result: BridgeStatus;
    if (onChain && route && onChain.check.state === 'NOT_FOUND') {
      // The quoted chain does not know the hash: nothing can have been bridged yet.
      result = this.answer(
        'NOT_FOUND',
        fallbackBridge,
        skeleton(),
        null,
        'Source transaction not found on chain yet; it may not have been broadcast or propagated',
      );
    } else if (onChain?.check.state === 'PENDING') {
      result = this.answer('PENDING', fallbackBridge, skeleton(), null, 'Source transaction is waiting to be mined', 5);
    } else if (onChain?.check.state === 'REVERTED') {
      const name = chainById(onChain.caip2Id)?.name ?? onChain.caip2Id;
      result = this.answer(
        'FAILED',
        fallbackBridge,
        skeleton(),
        null,
        `The source transaction reverted on ${name}; nothing was bridged`,
      );
    } else {
      const asked = route ? this.byName(route.provider) : hint ? [hint] : this.enabled;
      const answer = await this.askProviders(asked, txHash, route, args.deadline, toolHint);
      result = this.combine(answer, fallbackBridge, txHash, route, onChain);
    }

    await this.store.record(
      txHash,
      // Keyed by the provider, which the terminal cache is looked up by.
      result.aggregator ?? fallbackBridge,
      route?.id ?? null,
      result.status,
      result.substatus ?? null,
      result.message,
      result,
    );
    return result;
  }

  private get enabled(): BridgeProvider[] {
    return this.providers.filter(isEnabled);
  }

  private get providerNames(): string[] {
    return this.providers.map((p) => p.name);
  }

  /**
   * A route of the other world (a sandbox route seen by a live partner's lookup, or the reverse)
   * is none of this service's business: chain-proven links are global, worlds are not.
   */
  private ours(route: StoredRoute | undefined): StoredRoute | undefined {
    return route && this.providers.some((p) => p.name === route.provider) ? route : undefined;
  }

  private byName(name: string): BridgeProvider[] {
    const provider = this.providers.find((p) => p.name === name);
    return provider && isEnabled(provider) ? [provider] : [];
  }

  /**
   * The `bridge` hint: a provider name (`lifi`) or the name of a bridge a provider routes through
   * (`stargatev2`), which is passed on to the providers as a tool hint.
   */
  private hintedProvider(bridge: string | null | undefined): { provider?: BridgeProvider; tool?: string } {
    if (bridge === undefined || bridge === null || bridge === '') return {};
    const provider = this.providers.find((p) => p.name === bridge.toLowerCase());
    if (!provider) {
      const foreign = this.options.foreignProviders?.includes(bridge.toLowerCase()) === true;
      if (foreign || !/^[a-z0-9][a-z0-9_-]{0,39}$/i.test(bridge)) {
        throw badInput(
          `bridge must be one of ${this.providers.map((p) => p.name).join(', ')} or the name of a bridge they route through (a route's bridgeProvider), got ${quoted(bridge)}`,
        );
      }
      return { tool: bridge };
    }
    if (!provider.status.enabled) throw badInput(`bridge "${provider.name}" is not enabled: ${provider.status.reason}`);
    return { provider };
  }

  /** The partner says this transaction executes one of its routes: record the claim. */
  private async claimRoute(routeId: string, txHash: string, partnerId: string | null): Promise<StoredRoute> {
    if (!UUID.test(routeId)) throw badInput(`routeId must be a route id returned by a quote, got ${quoted(routeId)}`);
    const route = await this.store.routeById(routeId.toLowerCase());
    if (!route || route.partnerId !== partnerId || !this.ours(route)) throw notFound(`Route ${routeId} not found`);
    // A route's calldata carries quote deadlines: past its expiry it may revert or fill at a stale price.
    const expiresAt = route.route.expiresAt;
    if (route.txHash !== txHash && expiresAt !== undefined && this.now() / 1000 > expiresAt) {
      throw badInput(
        `routeId ${routeId} expired at ${new Date(expiresAt * 1000).toISOString()}; request a new quote and execute that route`,
      );
    }
    const family = familyOf(route.fromChain);
    if (family) requireTxHash(txHash, family);
    if (route.txHash === txHash) return route;
    if (route.txHash && route.linkedBy === 'chain') {
      throw badInput(`routeId ${routeId} was executed by another transaction (${route.txHash})`);
    }
    if (!(await this.store.link(route.id, txHash, 'partner'))) {
      throw badInput(`txHash is already linked to another route`);
    }
    return { ...route, txHash, linkedBy: 'partner' };
  }

  /**
   * The source transaction on chain, where an RPC is configured: on the route's chain when the
   * route is known, else on every configured chain (an EVM hash names no chain). A transaction
   * found there identifies its route by fingerprint, which links the two for later calls.
   */
  private async lookOnChain(
    txHash: string,
    route: StoredRoute | undefined,
    deadline: AbortSignal,
  ): Promise<(OnChain & { route?: StoredRoute }) | undefined> {
    if (!/^0x[0-9a-f]{64}$/.test(txHash)) return undefined;
    const chains = route ? [route.fromChain] : Object.keys(this.options.rpcUrls);
    const candidates = chains.filter((c) => this.options.rpcUrls[c] !== undefined && c.startsWith('eip155:'));
    if (candidates.length === 0) return undefined;
    // viem, large once resident, loads with the first on-chain lookup, not in every process.
    const viem = await import('viem');
    const found = await Promise.all(
      candidates.map(async (caip2Id) => {
        try {
          const tx = await beforeDeadline(
            this.client(viem, caip2Id).getTransaction({ hash: txHash as Hash }),
            deadline,
          );
          return { caip2Id, tx };
        } catch (err) {
          if (!(err instanceof viem.TransactionNotFoundError)) {
            this.log.warn({ err, chain: caip2Id }, 'source transaction lookup failed');
            return { caip2Id, tx: undefined, error: true };
          }
          return { caip2Id, tx: undefined };
        }
      }),
    );
    const hit = found.find((f) => f.tx);
    if (!hit?.tx) {
      // Only a route's own chain may declare the transaction unknown; an RPC error proves nothing.
      if (route && !found.some((f) => 'error' in f)) return { caip2Id: route.fromChain, check: { state: 'NOT_FOUND' } };
      return undefined;
    }
    const chainId = Number(hit.caip2Id.slice('eip155:'.length));
    const tx = hit.tx;
    let linked = route;
    if (tx.to) {
      const fingerprint = evmTxFingerprint({
        chainId,
        from: tx.from,
        to: tx.to,
        data: tx.input,
        value: tx.value.toString(),
      });
      const match = this.ours(await this.store.routeByFingerprint(fingerprint, txHash));
      if (match && (!route || match.id === route.id)) {
        if (match.txHash !== txHash || match.linkedBy !== 'chain') await this.store.link(match.id, txHash, 'chain');
        linked = { ...match, txHash, linkedBy: 'chain' };
      }
    }
    try {
      const { checkSourceTransaction } = await import('./providers/onchain/index.js');
      const check = await checkSourceTransaction({
        rpcUrl: this.options.rpcUrls[hit.caip2Id] as string,
        txHash,
        chainId,
        timeoutMs: this.options.timeoutMs,
        signal: deadline,
      });
      return linked ? { caip2Id: hit.caip2Id, check, route: linked } : { caip2Id: hit.caip2Id, check };
    } catch (err) {
      this.log.warn({ err, chain: hit.caip2Id }, 'source transaction check failed');
      return undefined;
    }
  }

  private client(viem: typeof import('viem'), caip2Id: string): PublicClient {
    let client = this.clients.get(caip2Id);
    if (!client) {
      client = viem.createPublicClient({
        transport: viem.http(this.options.rpcUrls[caip2Id], { retryCount: 0, timeout: this.options.timeoutMs }),
      });
      this.clients.set(caip2Id, client);
    }
    return client;
  }

  /** The most advanced answer of the providers asked; 503 when none of them could answer at all. */
  private async askProviders(
    providers: BridgeProvider[],
    txHash: string,
    route: StoredRoute | undefined,
    deadline: AbortSignal,
    toolHint?: string,
  ): Promise<ProviderStatusAnswer | null> {
    if (providers.length === 0) {
      throw upstreamUnavailable(
        route ? `Bridge provider "${route.provider}" is not enabled` : 'No bridge provider is enabled',
      );
    }
    const settled = await Promise.allSettled(
      providers.map((p) =>
        beforeDeadline(
          p.transferStatus({
            txHash,
            signal: deadline,
            ...(route ? { fromChain: route.fromChain, toChain: route.toChain } : {}),
            ...(route?.tracking ? { tracking: route.tracking } : {}),
            ...(toolHint ? { bridgeTool: toolHint } : {}),
          }),
          deadline,
        ),
      ),
    );
    let best: ProviderStatusAnswer | null = null;
    for (const [i, outcome] of settled.entries()) {
      if (outcome.status === 'rejected') {
        this.log.warn({ err: outcome.reason, provider: providers[i]?.name }, 'bridge status lookup failed');
        continue;
      }
      const answer = outcome.value;
      if (answer && (!best || RANK[answer.status] > RANK[best.status])) best = answer;
    }
    if (!best && settled.every((s) => s.status === 'rejected')) {
      throw upstreamUnavailable('Bridge status is unavailable right now; try again shortly');
    }
    return best;
  }

  private combine(
    answer: ProviderStatusAnswer | null,
    fallbackBridge: string,
    txHash: string,
    route: StoredRoute | undefined,
    onChain: OnChain | undefined,
  ): BridgeStatus {
    const chainTx = onChain?.check.txInfo;
    const sourceChain = route?.fromChain ?? onChain?.caip2Id;
    // The chain's own receipt has the real gas and block time; providers sometimes report zeros.
    const fromTx = chainTx ?? answer?.fromTx ?? emptyTx(txHash, sourceChain);
    const bridge = answer?.bridge ?? fallbackBridge;
    if (!answer || answer.status === 'NOT_FOUND') {
      if (route && onChain?.check.state === 'SUCCESS') {
        // The quoted deposit is mined; the bridge has not indexed it yet.
        return this.answer(
          'PENDING',
          bridge,
          fromTx,
          null,
          `Source transaction confirmed; waiting for ${bridge} to pick up the deposit`,
          10,
        );
      }
      return this.answer(
        'NOT_FOUND',
        bridge,
        fromTx,
        null,
        answer?.message ?? 'Transaction not found or not yet indexed by the bridge; poll again in 10 to 30 seconds',
      );
    }
    const toTx = answer.toTx ?? null;
    const detail = { answer, route };
    if (answer.status === 'PENDING') {
      const progress = this.estimate(fromTx, route, answer.substatus);
      const message = answer.message ?? pendingMessage(answer.substatus);
      return this.answer('PENDING', bridge, fromTx, toTx, message, progress, detail);
    }
    if (answer.status === 'DONE') {
      const message = answer.message ?? doneMessage(answer.substatus);
      return this.answer('DONE', bridge, fromTx, toTx, message, 100, detail);
    }
    const reason = answer.substatus ? ` (${answer.substatus})` : '';
    return this.answer('FAILED', bridge, fromTx, toTx, answer.message ?? `The transfer failed${reason}`, 0, detail);
  }

  /** Share of the expected duration that has passed since the source transaction, kept within 10–95. */
  private estimate(fromTx: TxInfo, route: StoredRoute | undefined, substatus: string | undefined): number {
    const duration = route?.route.estimatedTimeSeconds || DEFAULT_DURATION_SECONDS;
    if (fromTx.timestamp > 0) {
      const elapsed = Math.max(0, this.now() / 1000 - fromTx.timestamp);
      return Math.min(95, Math.max(10, Math.round(10 + (85 * elapsed) / duration)));
    }
    return substatus === 'WAIT_SOURCE_CONFIRMATIONS' ? 25 : substatus === 'WAIT_DESTINATION_TRANSACTION' ? 60 : 50;
  }

  private answer(
    status: BridgeStatusValue,
    bridge: string,
    fromTx: TxInfo,
    toTx: TxInfo | null,
    message: string,
    pendingProgress = 50,
    detail?: { answer: ProviderStatusAnswer; route: StoredRoute | undefined },
  ): BridgeStatus {
    const substatus = detail?.answer.substatus ?? null;
    // LI.FI reports refunds and partial fills under DONE: only a transfer that completed as quoted is 100.
    const asQuoted = substatus === null || substatus === 'COMPLETED';
    const progress =
      status === 'DONE' ? (asQuoted ? 100 : 99) : status === 'PENDING' ? Math.min(99, pendingProgress) : 0;
    return {
      status,
      // The bridge that moved the funds when the provider names it (or the route says), else the provider.
      bridge: detail?.answer.tool ?? detail?.route?.route.bridgeProvider ?? bridge,
      aggregator: detail?.answer.bridge ?? detail?.route?.provider ?? null,
      fromTx,
      toTx,
      progress,
      message,
      substatus,
      substatusMessage: detail?.answer.substatusMessage ?? null,
    };
  }
}

function doneMessage(substatus: string | undefined): string {
  switch (substatus) {
    case 'REFUNDED':
      return 'The transfer did not complete; the tokens were refunded to the sender';
    case 'PARTIAL':
      return 'The transfer completed with other tokens than quoted (partial); check the destination transaction';
    default:
      return 'The transfer is complete on both chains';
  }
}

function pendingMessage(substatus: string | undefined): string {
  switch (substatus) {
    case 'WAIT_SOURCE_CONFIRMATIONS':
      return 'Waiting for confirmations of the source transaction';
    case 'WAIT_DESTINATION_TRANSACTION':
      return 'Source transaction confirmed; waiting for the destination transaction';
    case 'BRIDGE_NOT_AVAILABLE':
      return 'The bridge is temporarily unavailable; the transfer will continue when it is back';
    default:
      return 'The transfer is in progress';
  }
}

/** What is known of a transaction before anyone has reported on it: its hash and, if known, its chain. */
function emptyTx(txHash: string, caip2Id: string | undefined): TxInfo {
  const chain = caip2Id ? chainById(caip2Id) : undefined;
  const evmId = caip2Id?.startsWith('eip155:') ? Number(caip2Id.slice('eip155:'.length)) : undefined;
  return {
    txHash,
    txLink: (caip2Id && explorerTxLink(caip2Id, txHash)) || '',
    chainId: chain?.chainId ?? evmId ?? 0,
    gasUsed: '0',
    gasPrice: '0',
    timestamp: 0,
  };
}
