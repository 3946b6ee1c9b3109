import type { FastifyBaseLogger as Logger } from 'fastify';
import { type BridgeService, createBridgeService } from './bridge/service.js';
import type { Config } from './config.js';
import { sweepIdempotencyRecords } from './credits/idempotency.js';
import { CreditLedger } from './credits/ledger.js';
import type { Database } from './db/orm.js';
import { NameIndex } from './identity/name-index.js';
import { type NamingProviders, namingProvidersFromConfig } from './identity/providers.js';
import { IdentitySearch } from './identity/search.js';
import { createMnsProvider } from './registry/mns/provider.js';

/**
 * Everything resolvers need, built once per process and shared by all requests. Subgraph resolvers
 * reach it through the request context, so tests can build a server around any configuration.
 */
export interface Services {
  config: Config;
  db: Database;
  log: Logger;
  ledger: CreditLedger;
  /** Bridge providers, catalogue cache, quote aggregation and transfer status. */
  bridge: BridgeService;
  /** Naming providers (MNS, ENS, Basenames, SNS) as configured, enabled or not. */
  naming: NamingProviders;
  identity: IdentitySearch;
  /** Stops background work (sweepers, refreshers) and closes connections. */
  close(): Promise<void>;
}

export async function createServices(config: Config, db: Database, log: Logger): Promise<Services> {
  const ledger = new CreditLedger(db, config.credits.reservationTtlMs);
  // Holds left by a crashed process are released on start and then periodically by every process.
  await ledger.sweepExpired();
  const sweeper = setInterval(
    () =>
      void Promise.all([ledger.sweepExpired(), sweepIdempotencyRecords(db)]).catch((err) =>
        log.warn({ err }, 'credit reservation sweep failed'),
      ),
    Math.max(1000, Math.floor(config.credits.reservationTtlMs / 4)),
  );
  sweeper.unref();

  const naming = namingProvidersFromConfig(config, createMnsProvider(db));
  const nameIndex = new NameIndex(db, config.naming.indexTtlSeconds);
  const identity = new IdentitySearch(naming, nameIndex, { timeoutMs: config.providerTimeoutMs, log });
  // Expired index entries are never served; sweeping only keeps the table from growing without bound.
  const indexSweeper = setInterval(
    () => void nameIndex.sweep().catch((err) => log.warn({ err }, 'name index sweep failed')),
    Math.min(config.naming.indexTtlSeconds * 1000, 600_000),
  );
  indexSweeper.unref();

  const bridge = createBridgeService(config, db, log);

  return {
    config,
    db,
    log,
    ledger,
    bridge,
    naming,
    identity,
    async close() {
      clearInterval(sweeper);
      // Answers already delivered must be charged before the connections close.
      await ledger.whenSettled();
      clearInterval(indexSweeper);
    },
  };
}
