import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ConfigError } from '../../config.js';
import { deliveryPlugin } from '../../credits/delivery.js';
import type { CreditLedger } from '../../credits/ledger.js';
import type { PriceTable } from '../../credits/prices.js';
import type { AuthenticatedPartner } from '../../graphql/context.js';
import { authPlugin } from '../../http/auth.js';
import { errorHandlerPlugin } from '../../http/error-handler.js';
import { rateLimitPlugin } from '../../http/rate-limit.js';
import { echoRequestId, edgeServerOptions, probeRoutes } from '../../http/server-options.js';
import { coalesceWrites } from '../../http/write-coalescing.js';
import { type CipgateContext, cipgatePlugin } from './plugin.js';

export interface HiveGatewayOptions {
  /** The composed supergraph (join__graph names each subgraph) and the prices read from its `@credits`. */
  supergraphSdl: string;
  prices: PriceTable;
  ledger: CreditLedger;
  /** The partner behind an `x-api-key`, as cipgate checks it (injected: the platform imports no feature). */
  verify: (key: string) => Promise<AuthenticatedPartner | null>;
  /** Answers /readyz: the ledger's database is what every paid request needs. */
  ping: () => Promise<void>;
  /** Subgraph names in the supergraph, each of which must have a URL in SUBGRAPH_URLS. */
  subgraphNames: string[];
}

/** Headers about one connection's framing, which a Fetch Response's headers must not carry onto ours. */
const HOP_BY_HOP = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Hive Gateway serving the supergraph against subgraph processes, behind the same Fastify hooks as
 * cipgate's own gateway: `x-api-key` checked and every request counted on the shared rate limits before
 * the body is read (authPlugin, rateLimitPlugin), the answer followed to the socket (deliveryPlugin) so
 * credits settle only once it was delivered, and cipgate's error bodies for refusals. Inside, the plugin
 * charges and signs subgraph fetches (plugin.ts).
 */
export async function buildHiveGateway(config: Config, options: HiveGatewayOptions): Promise<FastifyInstance> {
  const secret = config.subgraphSecret;
  const missing = options.subgraphNames.filter((name) => !config.subgraphUrls[name]);
  if (!secret || missing.length) {
    throw new ConfigError([
      ...(secret ? [] : ['SUBGRAPH_SECRET is required: Hive Gateway signs every subgraph fetch with it']),
      ...(missing.length ? [`SUBGRAPH_URLS must name every subgraph; missing ${missing.join(', ')}`] : []),
    ]);
  }
  const http = Fastify({
    logger: { level: config.logLevel },
    ...edgeServerOptions(config),
  });
  echoRequestId(http);
  await http.register(rateLimitPlugin, { config });
  await http.register(errorHandlerPlugin);
  await http.register(authPlugin, { verify: options.verify });
  await http.register(deliveryPlugin);

  const gateway = createGatewayRuntime<CipgateContext>({
    supergraph: options.supergraphSdl,
    transportEntries: Object.fromEntries(
      Object.entries(config.subgraphUrls).map(([name, location]) => [name, { location }]),
    ),
    plugins: () => [
      cipgatePlugin({
        prices: options.prices,
        ledger: options.ledger,
        subgraphSecret: secret,
        subgraphTimeoutMs: config.subgraphTimeoutMs,
        limits: config.graphqlLimits,
      }),
    ],
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: config.graphqlExplorer,
    logging: config.logLevel === 'silent' ? false : config.logLevel === 'fatal' ? 'error' : 'warn',
  });
  // The runtime builds its schema on the first request; do it before the gateway says it is ready.
  await gateway.getSchema();

  probeRoutes(http, options.ping);
  // Yoga's documented Fastify integration: Fastify has parsed the body, Hive reads it from the request.
  http.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const cipgate = { partner: request.partner, requestId: request.id, delivery: request.delivery, log: request.log };
      const response = await gateway.handleNodeRequestAndResponse(request, reply, { cipgate });
      response.headers.forEach((value, key) => {
        // The body is sent whole below, framed by Fastify's Content-Length: Hive's own framing and
        // connection headers (chunked on multipart and event-stream answers) would contradict it. Its
        // Headers keep the names' case.
        if (!HOP_BY_HOP.has(key.toLowerCase())) reply.header(key, value);
      });
      reply.status(response.status);
      return reply.send(Buffer.from(await response.arrayBuffer()));
    },
  });
  http.addHook('onClose', async () => gateway.dispose());
  coalesceWrites(http);
  return http;
}
