import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { surfaceOfRequest } from './errors.js';

/** Headers a browser script may read from an answer (CORS hides all but a few by default). */
const EXPOSED = ['x-request-id', 'etag', 'retry-after', 'allow', 'x-credits-charged', 'x-credits-remaining'];

/**
 * Lets pages on other origins call the API. Public lookups are keyless and the same for everyone, so any
 * origin may read them; partner paths and /graphql carry a key, so only the configured origins may.
 * Preflights are answered in the `onRequest` hook, before authentication and before Apollo, whose CSRF
 * prevention would otherwise refuse an OPTIONS it cannot tell from a simple request. Register it before
 * the auth plugin.
 */
export const corsPlugin = fp(async (app: FastifyInstance, { origins }: { origins: string[] }) => {
  const keyed = origins.includes('*') ? '*' : origins;
  const options = (origin: string | string[]) => ({
    origin,
    exposedHeaders: EXPOSED,
    maxAge: 600,
    strictPreflight: false,
  });
  const forKeyed = options(keyed);
  const forAnyone = options('*');
  await app.register(cors, {
    // An OPTIONS without Origin is no preflight, but answering it plainly beats a bare text/plain 400.
    strictPreflight: false,
    // Callback-style (two parameters), so the plugin runs it without a promise per request.
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: typeof forKeyed) => void) => {
      const surface = surfaceOfRequest(request);
      callback(null, surface === 'partner' || surface === 'graphql' ? forKeyed : forAnyone);
    },
  });
});
