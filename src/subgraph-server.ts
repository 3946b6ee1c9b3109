import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { type FastifyInstance, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import { getAuthenticatedPartner } from './features/accounts/api-keys.js';
import { subgraphs } from './features/index.js';
import { type Config, ConfigError, loadConfig } from './platform/config.js';
import { openDatabase } from './platform/db/orm.js';
import { GATEWAY_TOKEN_HEADER, type GatewayClaims, verifyGatewayToken } from './platform/gateway/subgraph-token.js';
import type { RequestContext } from './platform/graphql/context.js';
import { buildSubgraph, type SubgraphDefinition } from './platform/graphql/subgraph.js';
import { requestIdOptions } from './platform/http/server-options.js';
import { coalesceWrites } from './platform/http/write-coalescing.js';
import { createServices } from './services.js';

export interface SubgraphServer {
  http: FastifyInstance;
  /** Listens on SUBGRAPH_HOST:SUBGRAPH_PORT (loopback by default). */
  listen(): Promise<AddressInfo>;
  close(): Promise<void>;
}

/**
 * One subgraph as its own server, for scaling a subgraph out behind the gateway. Credits are charged only
 * by the gateway, which sees the whole operation, so this server answers nobody else: every request must
 * carry a gateway token signed with SUBGRAPH_SECRET, which also names the partner. An API key proves
 * nothing here; whoever holds one could otherwise read paid fields without paying.
 */
export async function serveSubgraph(definition: SubgraphDefinition, config: Config): Promise<SubgraphServer> {
  const secret = config.subgraphSecret;
  if (!secret) throw new ConfigError(['SUBGRAPH_SECRET is required to serve a subgraph as its own process']);
  const { schema } = buildSubgraph(definition);
  const http = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    // The gateway's request id, so one request can be followed across both processes' logs.
    ...requestIdOptions,
  });
  coalesceWrites(http);
  const db = await openDatabase(config.databaseUrl, config.database);
  const services = await createServices(config, db, http.log);
  // Only the gateway calls this server, and it already knows the schema: nothing to explore, nothing to debug.
  const apollo = new ApolloServer<RequestContext>({
    schema,
    introspection: false,
    includeStacktraceInErrorResponses: false,
  });
  await apollo.start();

  const verified = new WeakMap<FastifyRequest, GatewayClaims>();
  const requireGateway: onRequestHookHandler = async (request, reply) => {
    const header = request.headers[GATEWAY_TOKEN_HEADER];
    const claims = verifyGatewayToken(secret, typeof header === 'string' ? header : undefined);
    if (claims) {
      verified.set(request, claims);
      return;
    }
    request.log.warn({ hasToken: header !== undefined }, 'refused a request without a valid gateway token');
    return reply.code(401).send({
      errors: [{ message: 'This service answers only the cipgate gateway', extensions: { code: 'UNAUTHENTICATED' } }],
    });
  };
  http.get('/healthz', async () => ({ status: 'ok' }));
  http.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    onRequest: requireGateway,
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => {
        const claims = verified.get(request);
        if (!claims) throw new Error('gateway token check did not run');
        const partner =
          claims.partnerId && claims.keyId ? await getAuthenticatedPartner(db, claims.partnerId, claims.keyId) : null;
        return {
          requestId: claims.requestId,
          services,
          partner,
          log: request.log,
          forwardHeaders: {},
          memo: new Map(),
        };
      },
    }),
  });
  return {
    http,
    async listen() {
      await http.listen({ port: config.subgraphPort, host: config.subgraphHost });
      return http.server.address() as AddressInfo;
    },
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
  try {
    const server = await serveSubgraph(definition, loadConfig());
    await server.listen();
    process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}
