import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../platform/config.js';
import type { Database } from '../../../platform/db/orm.js';
import { chainReaderFromConfig } from '../sources/chain/source.js';
import { type IndexerLag, lagOf, readCursors } from './cursor.js';
import { MnsIndexer } from './indexer.js';

export { type IndexerLag, lagOf, readCursor, readCursors } from './cursor.js';
export { MnsIndexer, type StepResult } from './indexer.js';

/** The indexer the configuration describes; null without a fullnode URL and module address. */
export function indexerFromConfig(
  config: Config,
  db: Pick<Database, 'query' | 'transaction'>,
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>,
): MnsIndexer | null {
  const reader = chainReaderFromConfig(config);
  if (!reader || !config.mnsChain.moduleAddress) return null;
  return new MnsIndexer(db, reader, {
    moduleAddress: config.mnsChain.moduleAddress,
    pageSize: config.mnsChain.indexer.pageSize,
    startVersion: BigInt(config.mnsChain.indexer.startVersion),
    log,
  });
}

/**
 * The indexer's lag per network, for `/readyz`: read from its stored cursors, so it is the same whether
 * the indexer runs in this process (MNS_INDEXER) or as `npm run indexer`. Empty when it never ran.
 */
export async function indexerLag(db: Pick<Database, 'query'>): Promise<IndexerLag[]> {
  return (await readCursors(db)).map(lagOf);
}
