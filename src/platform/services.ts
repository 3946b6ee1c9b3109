import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from './config.js';
import type { CreditLedger } from './credits/ledger.js';
import type { Database } from './db/orm.js';

/**
 * Everything resolvers need, built once per process and shared by all requests (src/services.ts builds
 * it). The platform declares what it provides; each feature adds its own services to this interface
 * (`declare module` in the feature's index.ts), so the platform never imports a feature.
 */
export interface Services {
  config: Config;
  db: Database;
  log: Logger;
  ledger: CreditLedger;
  /** Stops background work (sweepers, refreshers) and closes connections. */
  close(): Promise<void>;
}
