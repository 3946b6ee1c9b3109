import type { FastifyBaseLogger as Logger } from 'fastify';
import { createBridgeService } from './features/bridge/service.js';
import { WebhookService } from './features/bridge/webhooks/index.js';
import { NameIndex } from './features/identity/name-index.js';
import { namingProvidersFromConfig } from './features/identity/provider-registry.js';
import { IdentitySearch } from './features/identity/search.js';
import { createMnsProvider } from './features/resolution/index.js';
import { indexerFromConfig } from './features/resolution/indexer/index.js';
import { MnsSources, mnsSourcesFromConfig } from './features/resolution/sources/index.js';
import type { Config } from './platform/config.js';
import { sweepIdempotencyRecords } from './platform/credits/idempotency.js';
import { CreditLedger } from './platform/credits/ledger.js';
import { retentionCutoff, rollUpLedger } from './platform/credits/rollup.js';
import { type Database, openReadDatabase } from './platform/db/orm.js';
import type { Services } from './platform/services.js';

export type { Services };

/**
 * Builds the platform's and every feature's services for one process. Subgraph resolvers reach them
 * through the request context, so tests can build a server around any configuration.
 */
export async function createServices(config: Config, db: Database, log: Logger): Promise<Services> {
  const ledger = new CreditLedger(db, config.credits.reservationTtlMs, {
    ...config.credits.lease,
    onError: (err) => log.warn({ err }, 'credit lease flush failed; retrying'),
  });
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
  // Raw ledger rows past LEDGER_RETENTION_DAYS move into the daily roll-up; every process may try (they
  // take turns), and hourly is plenty for a cutoff that moves once a day.
  const { ledgerRetentionDays } = config.credits;
  const rollUp = () =>
    void rollUpLedger(db, retentionCutoff(ledgerRetentionDays)).catch((err) =>
      log.warn({ err }, 'ledger roll-up failed (`npm run admin -- ledger:rollup` runs it without time limits)'),
    );
  if (ledgerRetentionDays) rollUp();
  const rollUpTimer = ledgerRetentionDays ? setInterval(rollUp, 3_600_000) : undefined;
  rollUpTimer?.unref();

  // Public lookups and search read the replica when there is one; writes and the ledger stay on `db`.
  const readDb = config.databaseReadUrl ? await openReadDatabase(config.databaseReadUrl, config.database) : db;
  const mns = new MnsSources(mnsSourcesFromConfig(config, readDb));
  const naming = await namingProvidersFromConfig(config, createMnsProvider(mns));
  const nameIndex = new NameIndex(db, config.naming.indexTtlSeconds, readDb);
  const identity = new IdentitySearch(naming, nameIndex, { timeoutMs: config.providerTimeoutMs, log });
  // Expired index entries are never served; sweeping only keeps the table from growing without bound.
  const indexSweeper = setInterval(
    () => void nameIndex.sweep().catch((err) => log.warn({ err }, 'name index sweep failed')),
    Math.min(config.naming.indexTtlSeconds * 1000, 600_000),
  );
  indexSweeper.unref();

  const bridge = createBridgeService(config, db, log);
  // Follows transfers partners asked about and pushes their status changes (webhooks, subscriptions).
  const webhooks = new WebhookService(db, bridge, config.bridge.push, log);
  webhooks.start();

  // MNS_INDEXER runs the indexer in this process; `npm run indexer` is the separate-process way.
  const indexer = config.mnsChain.indexer.inServer ? indexerFromConfig(config, db, log) : null;
  indexer?.start(config.mnsChain.indexer.intervalMs);

  return {
    config,
    db,
    log,
    ledger,
    bridge,
    webhooks,
    mns,
    naming,
    identity,
    async close() {
      await webhooks.stop();
      clearInterval(sweeper);
      clearInterval(rollUpTimer);
      // Answers already delivered must be charged, and leased credits handed back, before the
      // connections close.
      await ledger.close();
      clearInterval(indexSweeper);
      await indexer?.stop();
      if (readDb !== db) await readDb.close();
    },
  };
}
