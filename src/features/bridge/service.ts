import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/orm.js';
import { badInput } from '../../platform/errors.js';
import { BridgeCatalogue } from './catalogue.js';
import { requestDeadline } from './deadline.js';
import { type BridgeProviderOverrides, type BridgeProviderSet, createBridgeProviders } from './provider-registry.js';
import type { BridgeChain, BridgeProvider, BridgeToken } from './providers/types.js';
import { aggregateQuotes } from './quotes.js';
import { BridgeStatusService, type StatusArgs } from './status.js';
import { BridgeStore, type RouteWithId } from './store.js';
import type { BridgeQuoteInput, BridgeStatus } from './types.js';
import { parseQuoteInput, requireCaip2 } from './validation.js';

export interface BridgeProviderState {
  name: string;
  enabled: boolean;
  reason: string | null;
}

/** A status answer as the caller got it. */
export interface StatusAnswered {
  txHash: string;
  bridge: string | null;
  caller: BridgeCaller;
  answer: BridgeStatus;
}

/** Who is asking: a live partner is served by real upstreams only, a sandbox partner by the sandbox only. */
export interface BridgeCaller {
  partnerId: string | null;
  sandbox: boolean;
}

/** The providers of one world with their own catalogue and status lookups. */
class BridgeWorld {
  readonly catalogue: BridgeCatalogue;
  readonly statuses: BridgeStatusService;

  constructor(
    readonly providers: readonly BridgeProvider[],
    db: Database,
    store: BridgeStore,
    config: Config,
    log: Logger,
    foreignProviders: readonly string[] = [],
  ) {
    const timeoutMs = config.providerTimeoutMs;
    this.catalogue = new BridgeCatalogue(
      db,
      providers,
      { ttlMs: config.bridge.catalogueTtlSeconds * 1000, timeoutMs },
      log,
    );
    this.statuses = new BridgeStatusService(
      providers,
      store,
      { rpcUrls: config.bridge.rpcUrls, timeoutMs, foreignProviders },
      log,
    );
  }
}

/** The bridge feature as resolvers see it: validated inputs in, the spec's resources out. */
export class BridgeService {
  readonly store: BridgeStore;
  /** Every status answered, so the webhooks follower (webhooks/) learns of transfers and their changes. */
  readonly statusAnswered = new EventEmitter<{ answered: [StatusAnswered] }>();
  private readonly live: BridgeWorld;
  private readonly sandbox: BridgeWorld;

  constructor(
    providers: BridgeProviderSet,
    db: Database,
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.store = new BridgeStore(db);
    this.live = new BridgeWorld(
      providers.live,
      db,
      this.store,
      config,
      log,
      providers.sandbox.map((p) => p.name),
    );
    this.sandbox = new BridgeWorld(
      providers.sandbox,
      db,
      this.store,
      config,
      log,
      providers.live.map((p) => p.name),
    );
  }

  private world(sandbox: boolean): BridgeWorld {
    return sandbox ? this.sandbox : this.live;
  }

  /** Each request gets one deadline for all of its upstream calls. */
  private deadline(): AbortSignal {
    return requestDeadline(this.config.providerTimeoutMs);
  }

  providerStates(sandbox: boolean): BridgeProviderState[] {
    return this.world(sandbox).providers.map((p) => ({
      name: p.name,
      enabled: p.status.enabled,
      reason: p.status.enabled ? null : p.status.reason,
    }));
  }

  chains(sandbox: boolean): Promise<BridgeChain[]> {
    return this.world(sandbox).catalogue.chains(this.deadline());
  }

  /** A catalogue chain by id, for references from other subgraphs. */
  chain(caip2Id: string, sandbox: boolean): Promise<BridgeChain | undefined> {
    return this.world(sandbox).catalogue.chain(caip2Id, this.deadline());
  }

  async tokens(caip2Id: string, sandbox: boolean): Promise<BridgeToken[]> {
    requireCaip2('caip2Id', caip2Id);
    const { catalogue } = this.world(sandbox);
    const deadline = this.deadline();
    const chain = await catalogue.chain(caip2Id, deadline);
    if (!chain)
      throw badInput(`caip2Id "${caip2Id}" is not a supported bridge chain (see GET /partners/bridge/chains)`);
    return catalogue.tokens(caip2Id, deadline);
  }

  /** Routes best-first, each stored under its id for the status call. */
  async quote(input: BridgeQuoteInput, caller: BridgeCaller): Promise<RouteWithId[]> {
    const { catalogue, providers } = this.world(caller.sandbox);
    const deadline = this.deadline();
    const request = await parseQuoteInput(input, (id) => catalogue.isBridgeSupported(id, deadline));
    const routes = await aggregateQuotes(providers, request, deadline, this.log);
    return this.store.saveRoutes(caller.partnerId, request, routes, this.config.bridge.quoteTtlSeconds);
  }

  async status(args: Omit<StatusArgs, 'partnerId' | 'deadline'>, caller: BridgeCaller): Promise<BridgeStatus> {
    const answer = await this.world(caller.sandbox).statuses.status({
      ...args,
      partnerId: caller.partnerId,
      deadline: this.deadline(),
    });
    this.statusAnswered.emit('answered', { txHash: args.txHash, bridge: args.bridge ?? null, caller, answer });
    return answer;
  }
}

export function createBridgeService(
  config: Config,
  db: Database,
  log: Logger,
  overrides: BridgeProviderOverrides = {},
): BridgeService {
  return new BridgeService(createBridgeProviders(config, overrides), db, config, log);
}
