import { type ApolloFastifyContextFunction, fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { verifyApiKey } from './features/accounts/api-keys.js';
import { touchApiKey } from './features/accounts/key-usage.js';
import { bridgeProviderStates } from './features/bridge/provider-states.js';
import { serveSubscriptions } from './features/bridge/webhooks/ws.js';
import { namingProviderStates } from './features/identity/provider-states.js';
import { subgraphs } from './features/index.js';
import { indexerLag } from './features/resolution/indexer/index.js';
import { nameSchema } from './features/resolution/routes/public-schemas.js';
import { restRoutes } from './features/routes.js';
import type { Config } from './platform/config.js';
import { deliveryPlugin } from './platform/credits/delivery.js';
import { idempotencyPlugin } from './platform/credits/idempotency.js';
import { openDatabase } from './platform/db/orm.js';
import { scopeDatabaseFailures } from './platform/db/request-scope.js';
import { createGraphqlServer } from './platform/gateway/server.js';
import { unreachableSubgraphs } from './platform/gateway/subgraph-health.js';
import { buildSupergraph } from './platform/gateway/supergraph.js';
import type { RequestContext } from './platform/graphql/context.js';
import { nestingGuard } from './platform/graphql/limits.js';
import { contextFor } from './platform/graphql/request-context.js';
import type { SubgraphDefinition } from './platform/graphql/subgraph.js';
import { authPlugin } from './platform/http/auth.js';
import { cachingPlugin } from './platform/http/caching.js';
import { corsPlugin } from './platform/http/cors.js';
import { errorHandlerPlugin, frameworkErrorHandler } from './platform/http/error-handler.js';
import { directGraphql } from './platform/http/graphql-direct.js';
import { jsonBody } from './platform/http/json-body.js';
import { redactedPaths, redactKeys, requestSerializer } from './platform/http/log-redaction.js';
import { metricsPlugin } from './platform/http/metrics.js';
import { openapiPlugin } from './platform/http/openapi.js';
import { pagesPlugin } from './platform/http/pages/index.js';
import { rateLimitPlugin } from './platform/http/rate-limit.js';
import { RequestLogController } from './platform/http/request-log.js';
import { restPlugin } from './platform/http/rest-plugin.js';
import { echoRequestId, edgeServerOptions, probeRoutes } from './platform/http/server-options.js';
import { coalesceWrites } from './platform/http/write-coalescing.js';
import { coprocessorPlugin } from './platform/routers/coprocessor/coprocessor.js';
import { createServices, type Services } from './services.js';

export interface App {
  http: FastifyInstance;
  services: Services;
  close(): Promise<void>;
}

/** Builds the whole service around a configuration: database, subgraphs, gateway, REST and GraphQL. */
export interface BuildOptions {
  logger?: boolean;
  /** The subgraphs to compose; tests add their own beside the real ones. */
  subgraphs?: SubgraphDefinition[];
  /** Where logs go (stdout by default). */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const http = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            // Keys are secrets: never let one reach a log line, whatever gets logged later — a key sent in a
            // query string, or one echoed inside an error message, included.
            serializers: { req: requestSerializer },
            redact: { paths: redactedPaths, censor: '[redacted]' },
            hooks: { streamWrite: redactKeys },
          },
    ...edgeServerOptions(config),
    // Request lines carry partner, operation and credits; probes log at debug.
    logController: new RequestLogController(),
    // Router errors (bad percent-encoding, over-long parameter) in the interface's shape with a request id.
    frameworkErrors: frameworkErrorHandler,
    // The router measures a decoded parameter in UTF-16 units, the schema in characters: leave room for a
    // name of astral characters (emoji), so the schema and not the router says when a name is too long.
    routerOptions: { maxParamLength: 2 * nameSchema.maxLength },
  });
  let draining = false;
  echoRequestId(http);
  jsonBody(http);
  // Before any hook that queries the database: a request stops waiting on it after its first failure.
  scopeDatabaseFailures(http);
  // A keep-alive connection that was busy when draining began would otherwise hold the process open
  // after its last answer: tell the client to reconnect elsewhere.
  http.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const db = await openDatabase(config.databaseUrl, config.database);
  const services = await createServices(config, db, http.log);

  const supergraph = await buildSupergraph(options.subgraphs ?? subgraphs);
  const graphql = await createGraphqlServer(supergraph, {
    explorer: config.graphqlExplorer,
    subgraphUrls: config.subgraphUrls,
    subgraphSecret: config.subgraphSecret,
    subgraphTimeoutMs: config.subgraphTimeoutMs,
    limits: config.graphqlLimits,
  });

  // First, so that requests refused by later hooks (429, 401) are counted too.
  if (config.metricsEnabled) await http.register(metricsPlugin, { db });
  // Before auth and rate limits: a preflight carries no key and must not spend a budget.
  await http.register(corsPlugin, { origins: config.http.corsOrigins });
  await http.register(rateLimitPlugin, { config });
  await http.register(errorHandlerPlugin);
  await http.register(authPlugin, {
    verify: async (key: string) => {
      const partner = await verifyApiKey(db, key);
      if (partner) touchApiKey(db, partner.keyId, (err) => http.log.warn({ err }, 'could not record API key use'));
      return partner;
    },
  });
  // After auth (it needs the partner): charging follows delivery, and Idempotency-Key replays answers.
  await http.register(deliveryPlugin);
  await http.register(idempotencyPlugin, {
    db,
    staleAfterMs: config.credits.reservationTtlMs,
    settled: (partnerId) => services.ledger.whenSettled(partnerId),
  });
  // Before every route (swagger records routes as they are added); caching last, as it ends in compression.
  await http.register(openapiPlugin, { operations: restRoutes, prices: supergraph.prices });
  await http.register(pagesPlugin, { explorer: config.graphqlExplorer });
  await http.register(cachingPlugin, { maxAgeSeconds: config.http.cacheMaxAgeSeconds });
  // Apollo Router users get the same keys, limits and credits through its coprocessor protocol.
  if (config.routerCoprocessorSecret && config.subgraphSecret) {
    await http.register(coprocessorPlugin, {
      secret: config.routerCoprocessorSecret,
      subgraphSecret: config.subgraphSecret,
      prices: supergraph.prices,
      apiSdl: supergraph.apiSdl,
      ledger: services.ledger,
      verify: (key: string) => verifyApiKey(db, key),
    });
  }

  probeRoutes(
    http,
    () => db.ping(),
    async (reply) => {
      const subgraphs = await unreachableSubgraphs(config.subgraphUrls);
      if (subgraphs.length) return reply.code(503).send({ status: 'subgraph unreachable', subgraphs });
      // Without Redis, limits still hold per process: serve, but say so.
      // The MNS indexer's lag is detail, not readiness: a lagging index still answers.
      const lag = await indexerLag(db).catch(() => []);
      // Which providers serve, and why the others do not: detail too, as in the start-up line.
      const detail = {
        naming: namingProviderStates(services.naming),
        bridge: bridgeProviderStates(services.bridge),
        ...(lag.length ? { mnsIndexer: lag } : {}),
      };
      if ((await http.rateLimits.counters.probe()) === 'unreachable')
        return { status: 'degraded', redis: 'unreachable', ...detail };
      return { status: 'ready', ...detail };
    },
  );

  const graphqlContext: ApolloFastifyContextFunction<RequestContext> = async (request) => contextFor(request, services);
  const graphqlHandler = fastifyApolloHandler(graphql.apollo, { context: graphqlContext });
  // Single-fetch operations POSTed as JSON skip Apollo's pipeline; every other request goes through it.
  const direct = directGraphql({ graphql, services });
  // No automatic HEAD: it would run (and charge) a GET query whose answer is never sent.
  http.route<{ Reply: string | Buffer }>({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    preHandler: nestingGuard(config.graphqlLimits),
    async handler(request, reply) {
      // Apollo's handler answers text; the direct path answers a large answer as bytes (jsonText).
      return (await direct(request, reply)) ?? graphqlHandler.call(this, request as never, reply as never);
    },
    exposeHeadRoute: false,
  });
  // The gateway runs no subscriptions: the bridge subgraph serves its own over graphql-ws on /graphql.
  const bridgeSchema = supergraph.subgraphs.find((s) => s.name === 'bridge')?.schema;
  const subscriptions = bridgeSchema
    ? serveSubscriptions({
        server: http.server,
        schema: bridgeSchema,
        services,
        log: http.log,
        authenticate: (key) => verifyApiKey(db, key),
        // The WebSocket passes HTTP's guards: its limiter, the price table, its error shapes.
        rateLimits: http.rateLimits,
        prices: supergraph.prices,
        formatError: graphql.pipeline.formatError,
      })
    : null;

  await http.register(restPlugin, {
    routes: restRoutes,
    graphql,
    services,
    prices: supergraph.prices,
    apiSdl: supergraph.apiSdl,
  });
  // The last onSend hook (see coalesceWrites): after compression and the landing page's link.
  coalesceWrites(http);

  return {
    http,
    services,
    async close() {
      draining = true;
      await subscriptions?.close();
      await http.close();
      await graphql.apollo.stop();
      await services.close();
      await db.close();
    },
  };
}
