import { pino } from 'pino';
import { indexerFromConfig } from './features/resolution/indexer/index.js';
import { loadConfigOrExplain } from './platform/config.js';
import { openDatabase } from './platform/db/orm.js';

/**
 * `npm run indexer`: follows the MNS module's events on every Movement network with a fullnode URL
 * (MOVEMENT_RPC_URL_<network>, MNS_MODULE_ADDRESS) and keeps the registry in DATABASE_URL current,
 * until SIGINT/SIGTERM. `--once` catches up to the chain head and exits (for a scheduler).
 */
async function main(argv: string[]): Promise<number> {
  const config = loadConfigOrExplain();
  if (!config) return 2;
  const log = pino({ level: config.logLevel, name: 'mns-indexer' });
  const db = await openDatabase(config.databaseUrl);
  const indexer = indexerFromConfig(config, db, log);
  if (!indexer) {
    process.stderr.write('The MNS indexer needs MNS_MODULE_ADDRESS and at least one MOVEMENT_RPC_URL_<network>.\n');
    await db.close();
    return 2;
  }
  if (argv.includes('--once')) {
    try {
      await indexer.catchUp();
      return 0;
    } finally {
      await db.close();
    }
  }
  indexer.start(config.mnsChain.indexer.intervalMs);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await indexer.stop();
  await db.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`indexer failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
