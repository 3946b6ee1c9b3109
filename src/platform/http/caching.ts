import { hash } from 'node:crypto';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fresh from 'fresh';
import type { JsonSchema } from './graphql-json-schema.js';

/** Partner answers that change only with the bridge catalogue (its own TTL), not per call. */
const CATALOGUE = new Set(['/partners/bridge/chains', '/partners/bridge/tokens']);

type Kind = 'public' | 'catalogue' | 'graphql';

const kindOf = (route: string | undefined): Kind | undefined => {
  if (route === undefined) return undefined;
  if (route.startsWith('/api/public/')) return 'public';
  if (CATALOGUE.has(route)) return 'catalogue';
  if (route === '/graphql') return 'graphql';
  return undefined;
};

const addVary = (reply: FastifyReply, name: string) => {
  const current = reply.getHeader('vary');
  const list = typeof current === 'string' && current ? current.split(/\s*,\s*/) : [];
  if (!list.some((v) => v.toLowerCase() === name || v === '*')) reply.header('vary', [...list, name].join(', '));
};

/**
 * A weak ETag in the `etag` package's form (`W/"<byte length, hex>-<27 characters of base64 SHA-1>"`),
 * hashed in one call: the package builds a Hash object per answer, a few percent of a lookup's CPU.
 */
export function weakEtag(payload: string | Buffer): string {
  const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  return `W/"${bytes.toString(16)}-${hash('sha1', payload, 'base64').slice(0, 27)}"`;
}

/** @fastify/compress's default: smaller answers are sent as they are. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** Whether an answer of `schema` holds a list or a map somewhere, so its size follows the data. */
const canGrow = (schema: JsonSchema): boolean =>
  schema.type === 'array' ||
  schema.additionalProperties !== undefined ||
  schema.patternProperties !== undefined ||
  Object.values(schema.properties ?? {}).some(canGrow) ||
  (schema.items !== undefined && canGrow(schema.items));

/**
 * Route options that skip the compression plugin's hooks where they gain nothing: an answer of fixed
 * shape is a few scalars (a name and its owner: ~150 bytes, under COMPRESS_THRESHOLD_BYTES, so never
 * compressed anyway), and a GET has no body to decompress. The hooks run on every request, even when
 * they return at once.
 */
export function compressionOptions(method: string, answer: JsonSchema): { compress?: false; decompress?: false } {
  return {
    ...(canGrow(answer) ? {} : { compress: false }),
    ...(method === 'GET' || method === 'HEAD' ? { decompress: false } : {}),
  };
}

/** A GraphQL answer with errors says nothing stable about the data: never cache it. */
const hasErrors = (payload: string): boolean => {
  try {
    return (JSON.parse(payload) as { errors?: unknown }).errors !== undefined;
  } catch {
    return true;
  }
};

/**
 * `Cache-Control`, `ETag` and 304s for answers a client may reuse, then compression.
 *
 * The money rule: a conditional request is still a request, so a 304 would hand out a paid answer's
 * content (confirmed unchanged) for nothing. ETags and 304s are therefore given only to answers that
 * charged nothing (the credit plugin marks those that hold credits). Paid catalogue answers get a
 * private `max-age` only: the browser may keep the copy it paid for, but every request it does send is a
 * full, charged answer.
 *
 * Answers keyed by caller (catalogue, /graphql) are `private` and vary by `x-api-key`; public lookups
 * are the same for everyone and `public`. ETags are weak: compression changes the bytes, not the content.
 */
export const cachingPlugin = fp(async (app: FastifyInstance, { maxAgeSeconds }: { maxAgeSeconds: number }) => {
  app.addHook('onSend', (request, reply, payload, done) => done(null, cacheable(request, reply, payload)));
  const cacheable = (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    const kind = kindOf(request.routeOptions.url);
    if (!kind || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    if (kind === 'graphql' && hasErrors(payload.toString())) return payload;
    const paid = request.delivery?.holdsCredits === true;
    // A paid GraphQL GET may be a quote, stale within seconds: only the catalogue paths are kept paid.
    if (paid && kind === 'graphql') return payload;
    if (kind !== 'public') addVary(reply, 'x-api-key');
    const scope = kind === 'public' && !paid ? 'public' : 'private';
    reply.header('cache-control', `${scope}, max-age=${maxAgeSeconds}`);
    if (paid) return payload;
    const tag = weakEtag(payload);
    reply.header('etag', tag);
    if (!fresh(request.headers, { etag: tag })) return payload;
    reply.code(304);
    return '';
  };
  // After the hook above, so ETags are computed on the answer, not on its compressed bytes.
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD_BYTES });
});
