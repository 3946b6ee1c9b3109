/**
 * One federation engine serving cipgate's supergraph with in-process subgraphs, behind a plain
 * `node:http` server, for `npm run bench:engines` (bench/engines.ts). ENGINE picks the engine:
 *
 * - `apollo`: Apollo Gateway (JavaScript query planner) inside Apollo Server, each subgraph executed
 *   in-process by `CachedLocalDataSource`: the same gateway and data source as `src/gateway/server.ts`.
 * - `hive`: Hive Gateway's runtime (`@graphql-hive/gateway-runtime`) with the Rust query planner
 *   (`unifiedGraphHandler` from `@graphql-hive/router-runtime`), each subgraph executed in-process by a
 *   custom transport over the same subgraph schemas, also parsing and validating each subgraph
 *   operation once.
 *
 * Both engines get the same process around them: the service's own `Services` (database, ledger,
 * naming, bridge catalogue), the same `x-api-key` check (`verifyApiKey`, one SQL statement, as the
 * production auth hook does on /graphql) and the same per-request `RequestContext`, which every
 * subgraph of one request shares, as in production. The credits plugin runs on neither: it is an
 * Apollo Server plugin with no Hive port yet, and the ledger's database work is the same whichever
 * engine plans the query, so leaving it out on both compares the engines and nothing else.
 *
 * Run by the bench as its own process: ENGINE=apollo|hive DATABASE_URL=file:… PORT=… node engine-server.js
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import type { ExecutionRequest, Executor } from '@graphql-tools/utils';
import { type DocumentNode, execute, type GraphQLError, type GraphQLSchema, validate } from 'graphql';
import { pino } from 'pino';
import { verifyApiKey } from '../src/features/accounts/api-keys.js';
import { subgraphs } from '../src/features/index.js';
import { loadConfig } from '../src/platform/config.js';
import { openDatabase } from '../src/platform/db/orm.js';
import { CachedLocalDataSource } from '../src/platform/gateway/local-data-source.js';
import { buildSupergraph, type Supergraph } from '../src/platform/gateway/supergraph.js';
import type { AuthenticatedPartner, RequestContext } from '../src/platform/graphql/context.js';
import { createServices, type Services } from '../src/services.js';

type Handler = (req: IncomingMessage, res: ServerResponse, ctx: RequestContext) => Promise<void>;

const engine = process.env.ENGINE;
if (engine !== 'apollo' && engine !== 'hive') throw new Error(`ENGINE must be apollo or hive, got ${engine}`);

const config = loadConfig();
const log = pino({ level: config.logLevel });
const db = await openDatabase(config.databaseUrl);
const services = await createServices(config, db, log);
const supergraph = await buildSupergraph(subgraphs);

/**
 * The production gateway minus the credits plugin (see the header): same supergraph, same in-process
 * data source, same landing page and error shaping as `createGraphqlServer`.
 */
async function apolloHandler(sg: Supergraph): Promise<Handler> {
  const schemas = new Map(sg.subgraphs.map((s) => [s.name, s.schema]));
  const gateway = new ApolloGateway({
    supergraphSdl: sg.sdl,
    buildService: ({ name }) => {
      const schema = schemas.get(name);
      if (!schema) throw new Error(`supergraph names unknown subgraph ${name}`);
      return new CachedLocalDataSource(schema);
    },
  });
  const server = new ApolloServer<RequestContext>({
    gateway,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })],
    formatError: (formatted) => {
      const code = formatted.extensions?.code;
      if (code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR' || code === undefined) {
        return { ...formatted, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
      const { serviceName: _s, exception: _e, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    },
  });
  await server.start();
  return async (req, res, ctx) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      return send(res, 400, { 'content-type': 'application/json' }, '{"errors":[{"message":"Malformed JSON"}]}');
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
      context: async () => ctx,
    });
    const out: Record<string, string> = {};
    for (const [name, value] of answer.headers) out[name] = value;
    if (answer.body.kind === 'complete') return send(res, answer.status ?? 200, out, answer.body.string);
    res.writeHead(answer.status ?? 200, out);
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

/**
 * Runs one subgraph's share of a query plan in-process. Like `CachedLocalDataSource`, each distinct
 * subgraph document is validated once: the router runtime parses every fetch node's operation once
 * per plan and hands over the same DocumentNode on every request, so a WeakMap keyed by the document
 * holds exactly the plans' operations.
 */
function inProcessExecutor(schema: GraphQLSchema): Executor {
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  const run = (request: ExecutionRequest) => {
    let errors = validated.get(request.document);
    if (!errors) {
      errors = validate(schema, request.document);
      validated.set(request.document, errors);
    }
    if (errors.length) return { errors };
    const gatewayContext = request.context as { cipgate?: RequestContext } | undefined;
    return execute({
      schema,
      document: request.document,
      variableValues: request.variables,
      operationName: request.operationName,
      // The request's own context, shared by every subgraph of the request as in production.
      contextValue: gatewayContext?.cipgate,
      rootValue: request.rootValue,
    });
  };
  // Executor is generic in the result's data type, which graphql-js's execute cannot express.
  return run as Executor;
}

async function hiveHandler(sg: Supergraph): Promise<Handler> {
  const executors = new Map(sg.subgraphs.map((s) => [s.name, inProcessExecutor(s.schema)]));
  const gateway = createGatewayRuntime<{ cipgate: RequestContext }>({
    supergraph: sg.sdl,
    unifiedGraphHandler,
    // Every transport kind the supergraph names (federation's join__graph entries are `http`) resolves
    // to the in-process executor of that subgraph: nothing leaves the process, as with Apollo.
    transports: () => ({
      getSubgraphExecutor({ subgraphName }) {
        const executor = executors.get(subgraphName);
        if (!executor) throw new Error(`supergraph names unknown subgraph ${subgraphName}`);
        return executor;
      },
    }),
    logging: config.logLevel === 'silent' || config.logLevel === 'fatal' ? 'error' : 'warn',
    landingPage: true,
    graphiql: true,
  });
  // The gateway builds its schema lazily on the first request; do it before the bench reports ready.
  await gateway.getSchema();
  return async (req, res, ctx) => {
    // The adapter's call form writes the response (handleNodeRequestAndResponse only returns it); the
    // third argument becomes part of the GraphQL context that reaches the subgraph executors.
    await gateway(req, res, { cipgate: ctx });
  };
}

const handler = engine === 'apollo' ? await apolloHandler(supergraph) : await hiveHandler(supergraph);

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers);
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The production request context (src/graphql/request-context.ts), built from a plain node request. */
function contextFor(req: IncomingMessage, svc: Services, partner: AuthenticatedPartner | null): RequestContext {
  const requestId = randomUUID();
  const key = req.headers['x-api-key'];
  return {
    requestId,
    services: svc,
    partner,
    log: log.child({ reqId: requestId }),
    forwardHeaders: { 'x-request-id': requestId, ...(typeof key === 'string' ? { 'x-api-key': key } : {}) },
    memo: new Map(),
  };
}

const server = createServer((req, res) => {
  void (async () => {
    if (req.url === '/readyz') return send(res, 200, { 'content-type': 'application/json' }, '{"status":"ready"}');
    if (!req.url?.startsWith('/graphql')) return send(res, 404, {}, '');
    // As on /graphql in production: a key is optional, but one that is presented must be valid.
    const key = req.headers['x-api-key'];
    let partner: AuthenticatedPartner | null = null;
    if (typeof key === 'string' && key.trim()) {
      partner = await verifyApiKey(db, key.trim());
      if (!partner) return send(res, 401, { 'content-type': 'application/json' }, '{"message":"Invalid API key"}');
    }
    await handler(req, res, contextFor(req, services, partner));
  })().catch((err: unknown) => {
    log.error({ err }, 'engine server request failed');
    if (!res.headersSent) send(res, 500, {}, '');
    else res.destroy();
  });
});

server.listen(config.port, '127.0.0.1');

const shutdown = () => {
  server.close();
  void services
    .close()
    .then(() => db.close())
    .finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
