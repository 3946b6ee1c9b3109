import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthenticated } from '../errors.js';
import type { AuthenticatedPartner } from '../graphql/context.js';
import { surfaceOf } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    partner: AuthenticatedPartner | null;
  }
}

const presentedKey = (request: FastifyRequest): string | undefined => {
  const value = request.headers['x-api-key'];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Probes (and the metrics scraper) must answer even when a caller has used up every budget. The Router's
 * coprocessor calls count each client request themselves (src/platform/routers/coprocessor/).
 */
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics', '/router/coprocessor']);

/**
 * Resolves `x-api-key` to a partner, then charges the request to a rate-limit bucket: the partner once the
 * key is verified, the client address otherwise (plus a failed-key bucket when a key did not verify).
 * Every partner path requires a valid key (401 otherwise); on /graphql a key is optional, but a key that
 * is presented must be valid. Runs on `onRequest`, before the body is read, so a refusal costs no work.
 *
 * The path is the one the router matched (decoded), so `/%70artners/stats` is a partner path here too.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { verify }: { verify: (key: string) => Promise<AuthenticatedPartner | null> }) => {
    app.decorateRequest('partner', null);
    app.addHook('onRequest', async (request) => {
      const route = request.routeOptions.url;
      if (route !== undefined && UNLIMITED.has(route)) return;
      const surface = surfaceOf(route ?? request.url);
      const key = surface === 'partner' || surface === 'graphql' ? presentedKey(request)?.trim() : undefined;
      if (!key) {
        await app.rateLimits.address(request, surface);
        if (surface === 'partner') throw unauthenticated('Missing API key: send it in the x-api-key header');
        return;
      }
      await app.rateLimits.refuseGuessing(request, surface);
      const partner = await verify(key);
      if (!partner) {
        await app.rateLimits.failedKey(request, surface);
        throw unauthenticated('Invalid API key');
      }
      await app.rateLimits.partner(partner.id, surface);
      request.partner = partner;
    });
  },
);
