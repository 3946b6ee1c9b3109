import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyServerFactoryHandler } from 'fastify';
import type { Config } from '../config.js';
import { REQUEST_ID } from '../graphql/request-context.js';
import { trustProxyOption } from './rate-limit.js';

/** A caller's (or the gateway's) x-request-id becomes the request id, so one request can be followed across logs. */
export const requestIdOptions = {
  requestIdHeader: false,
  genReqId: (req: { headers: IncomingHttpHeaders }): string => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  },
} as const;

/**
 * How often node:http looks for requests past their time: a tenth of the headers' limit, within
 * 50 ms–1 s (node's own 30 s would let a slow client keep its connection up to 30 s past the limit).
 */
export const connectionsCheckingInterval = (headersTimeoutMs: number): number =>
  Math.min(1000, Math.max(50, Math.floor(headersTimeoutMs / 10)));

/**
 * The node:http server: slow clients are cut off (a request, headers and body, must arrive within
 * `requestTimeoutMs`: node answers 408 and closes), idle connections closed and open ones capped
 * (config.ts). Behind a reverse proxy, which keeps few connections alive and sends many clients' requests
 * over each: the keep-alive timeout outlasts the proxy's idle timeout, so the proxy closes first, and
 * there is no cap on requests per connection. Only the arrival of a request is timed, not its handling;
 * a WebSocket (graphql-ws on /graphql) leaves node:http's timing once upgraded.
 */
export function edgeServer(http: Config['http'], handler: FastifyServerFactoryHandler): Server {
  const server = createServer(
    { connectionsCheckingInterval: connectionsCheckingInterval(http.headersTimeoutMs) },
    handler,
  );
  server.requestTimeout = http.requestTimeoutMs;
  server.headersTimeout = http.headersTimeoutMs;
  server.keepAliveTimeout = http.keepAliveTimeoutMs;
  server.setTimeout(http.idleTimeoutMs);
  if (http.maxConnections > 0) server.maxConnections = http.maxConnections;
  return server;
}

/** The Fastify options of every server partners call directly (cipgate's gateway, Hive Gateway). */
export function edgeServerOptions(config: Pick<Config, 'bodyLimitBytes' | 'trustProxy' | 'http'>) {
  return {
    bodyLimit: config.bodyLimitBytes,
    // Believe X-Forwarded-For only from configured proxies: otherwise anyone could pick their own address
    // and with it a fresh rate-limit bucket.
    trustProxy: trustProxyOption(config.trustProxy),
    ...requestIdOptions,
    return503OnClosing: true,
    serverFactory: (handler: FastifyServerFactoryHandler) => edgeServer(config.http, handler),
  };
}

/** Every answer names its request id, so a partner can quote it. */
export function echoRequestId(http: FastifyInstance): void {
  // Callback-style hooks (here and in the other per-request hooks) cost no promise and no microtask hop.
  http.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

/**
 * The probes: `/healthz` says the process answers; `/readyz` is a 503 while the database is unreachable,
 * else whatever `ready` answers (further checks of the server's own).
 */
export function probeRoutes(
  http: FastifyInstance,
  ping: () => Promise<unknown>,
  ready: (reply: FastifyReply) => Promise<unknown> = async () => ({ status: 'ready' }),
): void {
  http.get('/healthz', async () => ({ status: 'ok' }));
  http.get('/readyz', async (_request, reply) => {
    try {
      await ping();
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
    return ready(reply);
  });
}
