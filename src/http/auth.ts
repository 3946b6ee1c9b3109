import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthenticatedPartner } from '../graphql/context.js';
import { verifyApiKey } from '../partners/api-keys.js';
import type { Services } from '../services.js';
import { HttpError, surfaceOf } from './errors.js';

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
 * Resolves `x-api-key` to a partner. Every partner path requires a valid key (401 otherwise); on
 * /graphql a key is optional, but a key that is presented must be valid.
 */
export const authPlugin = fp(async (app: FastifyInstance, { services }: { services: Services }) => {
  app.decorateRequest('partner', null);
  app.addHook('preHandler', async (request) => {
    const surface = surfaceOf(request.url);
    if (surface !== 'partner' && surface !== 'graphql') return;
    const key = presentedKey(request)?.trim();
    if (!key) {
      if (surface === 'partner') throw new HttpError(401, 'Missing API key: send it in the x-api-key header');
      return;
    }
    const partner = await verifyApiKey(services.db, key);
    if (!partner) throw new HttpError(401, 'Invalid API key');
    request.partner = partner;
  });
});
