/**
 * `npm run gateway:hive`: Hive Gateway serving cipgate's supergraph against subgraph processes
 * (`npm run subgraph -- <name>`, listed in SUBGRAPH_URLS), with cipgate's key check, rate limits, credits
 * and error codes (src/platform/routers/hive/). Listens on HOST:PORT.
 */
import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { verifyApiKey } from './features/accounts/api-keys.js';
import { subgraphs } from './features/index.js';
import { type Config, ConfigError, loadConfig } from './platform/config.js';
import { CreditLedger } from './platform/credits/ledger.js';
import { openDatabase } from './platform/db/orm.js';
import { buildSupergraph } from './platform/gateway/supergraph.js';
import type { SubgraphDefinition } from './platform/graphql/subgraph.js';
import { buildHiveGateway } from './platform/routers/hive/gateway.js';

export async function startHiveGateway(
  config: Config,
  definitions: SubgraphDefinition[] = subgraphs,
): Promise<{ http: FastifyInstance; close(): Promise<void> }> {
  // Hive's logger reads LOG_LEVEL itself and refuses cipgate's `silent` and `fatal`: give it its nearest.
  if (process.env.LOG_LEVEL === 'silent' || process.env.LOG_LEVEL === 'fatal') process.env.LOG_LEVEL = 'error';
  // Composed here from the same subgraphs the processes serve, so prices and plans cannot drift apart.
  const supergraph = await buildSupergraph(definitions);
  const db = await openDatabase(config.databaseUrl, config.database);
  const ledger = new CreditLedger(db, config.credits.reservationTtlMs);
  try {
    const http = await buildHiveGateway(config, {
      supergraphSdl: supergraph.sdl,
      prices: supergraph.prices,
      ledger,
      verify: (key) => verifyApiKey(db, key),
      ping: () => db.ping(),
      subgraphNames: supergraph.subgraphs.map((s) => s.name),
    });
    return {
      http,
      async close() {
        await http.close();
        // Settlements of answers already delivered finish before the ledger's database goes.
        await ledger.whenSettled();
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const config = loadConfig();
    const gateway = await startHiveGateway(config);
    await gateway.http.listen({ port: config.port, host: config.host });
    const stop = () => void gateway.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}
