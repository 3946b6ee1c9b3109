import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

/** The Fastify options of every server partners call directly (cipgate's gateway, Hive Gateway). */
export function edgeServerOptions(config: Pick<Config, 'bodyLimitBytes' | 'trustProxy'>) {
  return {
    bodyLimit: config.bodyLimitBytes,
    // Believe X-Forwarded-For only from configured proxies: otherwise anyone could pick their own address
    // and with it a fresh rate-limit bucket.
    trustProxy: trustProxyOption(config.trustProxy),
    ...requestIdOptions,
    return503OnClosing: true,
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
