import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/orm.js';
import { badInput } from '../graphql/errors.js';
import type { BridgeChain, BridgeProvider, BridgeToken } from '../providers/bridge/types.js';
import { BridgeCatalogue } from './catalogue.js';
import { type BridgeProviderOverrides, createBridgeProviders } from './providers.js';
import { aggregateQuotes } from './quotes.js';
import { type BridgeStatusResult, BridgeStatusService, type StatusArgs } from './status.js';
import { BridgeStore, type RouteWithId } from './store.js';
import { parseQuoteInput, type RawQuoteInput, requireCaip2 } from './validation.js';

export interface BridgeProviderState {
  name: string;
  enabled: boolean;
  reason: string | null;
}

/** The bridge feature as resolvers see it: validated inputs in, the spec's resources out. */
export class BridgeService {
  readonly catalogue: BridgeCatalogue;
  readonly store: BridgeStore;
  private readonly statuses: BridgeStatusService;

  constructor(
    readonly providers: readonly BridgeProvider[],
    db: Database,
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    const timeoutMs = config.providerTimeoutMs;
    this.catalogue = new BridgeCatalogue(
      db,
      providers,
      { ttlMs: config.bridge.catalogueTtlSeconds * 1000, timeoutMs },
      log,
    );
    this.store = new BridgeStore(db);
    this.statuses = new BridgeStatusService(providers, this.store, { rpcUrls: config.bridge.rpcUrls, timeoutMs }, log);
  }

  providerStates(): BridgeProviderState[] {
    return this.providers.map((p) => ({
      name: p.name,
      enabled: p.status.enabled,
      reason: p.status.enabled ? null : p.status.reason,
    }));
  }

  chains(): Promise<BridgeChain[]> {
    return this.catalogue.chains();
  }

  async tokens(caip2Id: string): Promise<BridgeToken[]> {
    requireCaip2('caip2Id', caip2Id);
    const chain = await this.catalogue.chain(caip2Id);
    if (!chain)
      throw badInput(`caip2Id "${caip2Id}" is not a supported bridge chain (see GET /partners/bridge/chains)`);
    return this.catalogue.tokens(caip2Id);
  }

  /** Routes best-first, each stored under its id for the status call. */
  async quote(input: RawQuoteInput, partnerId: string | null): Promise<RouteWithId[]> {
    const request = await parseQuoteInput(input, (id) => this.catalogue.isBridgeSupported(id));
    const routes = await aggregateQuotes(this.providers, request, this.config.providerTimeoutMs, this.log);
    return this.store.saveRoutes(partnerId, request, routes);
  }

  status(args: StatusArgs): Promise<BridgeStatusResult> {
    return this.statuses.status(args);
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
