import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { HttpError, surfaceOf } from './errors.js';

/**
 * Per API key on the partner interface (and on /graphql when a key is sent), per client address
 * elsewhere. Counters live in Redis when it is configured, so every process shares one budget.
 * Rate limiting runs before authentication and execution, so a 429 never costs credits.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: { config: Config; redis?: Redis }) => {
  const { windowMs, partnerMax, publicMax } = opts.config.rateLimit;
  await app.register(rateLimit, {
    global: true,
    timeWindow: windowMs,
    redis: opts.redis,
    nameSpace: 'cipgate-rl:',
    skipOnError: true,
    allowList: (request) => request.url === '/healthz' || request.url === '/readyz',
    keyGenerator: (request) => {
      const key = request.headers['x-api-key'];
      // Hash so that keys never sit in Redis or memory dumps in the clear.
      if (typeof key === 'string' && key) return `key:${createHash('sha256').update(key).digest('base64url')}`;
      return `ip:${request.ip}`;
    },
    max: (_request, key) => (key.startsWith('key:') ? partnerMax : publicMax),
    errorResponseBuilder: (request, context) =>
      new HttpError(
        429,
        surfaceOf(request.url) === 'partner'
          ? `Rate limit exceeded: ${context.max} requests per ${context.after}; retry in ${Math.ceil(context.ttl / 1000)} s`
          : `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`,
        { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      ),
  });
});
