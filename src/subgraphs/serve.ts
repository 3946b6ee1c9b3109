import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../config.js';
import { openDatabase } from '../db/orm.js';
import type { RequestContext } from '../graphql/context.js';
import { verifyApiKey } from '../partners/api-keys.js';
import { createServices } from '../services.js';
import { subgraphs } from './index.js';
import { buildSubgraph, type SubgraphDefinition } from './subgraph.js';

/**
 * One subgraph as its own server, for scaling a subgraph out or putting Apollo Router in front of
 * schema/supergraph.graphql. It trusts no gateway: it verifies the forwarded x-api-key itself. Credits
 * are charged by the gateway, which sees the whole operation.
 */
export async function serveSubgraph(
  definition: SubgraphDefinition,
  config: Config,
): Promise<{ http: FastifyInstance; close(): Promise<void> }> {
  const { schema } = buildSubgraph(definition);
  const http = Fastify({ logger: { level: config.logLevel }, bodyLimit: config.bodyLimitBytes });
  const db = await openDatabase(config.databaseUrl);
  const services = await createServices(config, db, http.log);
  const apollo = new ApolloServer<RequestContext>({ schema, introspection: config.graphqlExplorer });
  await apollo.start();
  http.get('/healthz', async () => ({ status: 'ok' }));
  http.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => {
        const key = request.headers['x-api-key'];
        const incomingId = request.headers['x-request-id'];
        return {
          requestId: typeof incomingId === 'string' ? incomingId : randomUUID(),
          services,
          partner: typeof key === 'string' ? await verifyApiKey(db, key) : null,
          log: request.log,
          forwardHeaders: {},
          memo: new Map(),
        };
      },
    }),
  });
  return {
    http,
    async close() {
      await http.close();
      await apollo.stop();
      await services.close();
      await db.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = process.argv[2];
  const definition = subgraphs.find((s) => s.name === name);
  if (!definition) {
    process.stderr.write(`Usage: npm run subgraph -- <${subgraphs.map((s) => s.name).join('|')}>\n`);
    process.exit(2);
  }
  const config = loadConfig();
  const server = await serveSubgraph(definition, config);
  await server.http.listen({ port: Number(process.env.SUBGRAPH_PORT ?? 4001), host: config.host });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
