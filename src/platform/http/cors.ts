import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { decodedPath, surfaceOfRequest } from './errors.js';

/** Headers a browser script may read from an answer (CORS hides all but a few by default). */
const EXPOSED = [
  'x-request-id',
  'etag',
  'retry-after',
  'allow',
  'x-credits-charged',
  'x-credits-remaining',
  'idempotent-replayed',
  'ratelimit',
  'ratelimit-policy',
];

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether a request carries a key, or (a preflight) announces that the real one will. */
function keyed(request: FastifyRequest): boolean {
  if (request.headers['x-api-key'] !== undefined) return true;
  if (request.method !== 'OPTIONS') return false;
  const announced = request.headers['access-control-request-headers'];
  return typeof announced === 'string' && /(^|,)\s*x-api-key\s*(,|$)/i.test(announced);
}

/**
 * Lets pages on other origins call the API, for its two audiences. A request without `x-api-key` (public
 * lookups, keyless `/graphql`) reads what anyone may, so any origin may send it; a keyed request to a
 * partner path or `/graphql` spends a partner's credits, so only the origins in `CORS_ORIGINS` may. A preflight allows every method its path
 * serves. Preflights are answered in the `onRequest` hook, before authentication and before Apollo,
 * whose CSRF prevention would otherwise refuse an OPTIONS it cannot tell from a simple request. Register
 * it before the auth plugin.
 */
export const corsPlugin = fp(async (app: FastifyInstance, { origins }: { origins: string[] }) => {
  const listed = origins.includes('*') ? '*' : origins;
  const base = { exposedHeaders: EXPOSED, maxAge: 600, strictPreflight: false };
  const forKeyed = { ...base, origin: listed };
  const forAnyone = { ...base, origin: '*' };
  // Looked up at each preflight: browsers cache the answer (`maxAge`), so they are few.
  const methods = (request: FastifyRequest): string => {
    const path = decodedPath(request.url);
    return METHODS.filter((method) => app.findRoute({ method, url: path })).join(',') || 'GET,HEAD,POST';
  };
  await app.register(cors, {
    // An OPTIONS without Origin is no preflight, but answering it plainly beats a bare text/plain 400.
    strictPreflight: false,
    // Callback-style (two parameters), so the plugin runs it without a promise per request.
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: object) => void) => {
      // The public interface takes no key: whatever a request carries, anyone may read it.
      const policy = keyed(request) && surfaceOfRequest(request) !== 'public' ? forKeyed : forAnyone;
      callback(null, request.method === 'OPTIONS' ? { ...policy, methods: methods(request) } : policy);
    },
  });
});
