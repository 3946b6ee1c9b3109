import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { unauthenticated } from '../errors.js';
import type { AuthenticatedPartner } from '../graphql/context.js';
import { andThen, type Maybe } from '../maybe.js';
import { type Surface, surfaceOf, surfaceOfRoute } from './errors.js';
import { rateLimitHeaders } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    partner: AuthenticatedPartner | null;
  }
}

/**
 * How long a verified key is trusted without asking the database again. A key revoked (in any process:
 * this cache is per process and nothing is told) is refused at most this long after, so it stays at 1 s.
 */
export const KEY_CACHE_TTL_MS = 1000;
const KEY_CACHE_MAX = 10_000;

/**
 * How long a key that verified counts as known valid for the failed-key budget (rate-limit.ts): past its
 * address's budget a known key is looked up as usual (a revoked one then fails), an unknown one only as
 * the address's own budget allows. Not an authorisation: every use still verifies (or hits the 1 s cache).
 */
export const KNOWN_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Remembers keys that verified, by their SHA-256 (the key itself is not kept), for `ttlMs`; requests that
 * arrive together for one key share one check. A key that fails is never remembered, so a key issued a
 * moment ago works at once. Bounded: past the limit the least recently used entries go first.
 *
 * `unknownKey`, when given, runs before a key neither cached nor known valid (verified in the last
 * KNOWN_KEY_TTL_MS) is looked up: the failed-key budget's check, which may refuse it by throwing.
 */
export function verifiedKeyCache(
  verify: (key: string) => Promise<AuthenticatedPartner | null>,
  ttlMs: number,
): (key: string, unknownKey?: () => Maybe<void>) => Maybe<AuthenticatedPartner | null> {
  type Entry = { partner: Promise<AuthenticatedPartner | null>; verified?: AuthenticatedPartner };
  const cached = ttlMs > 0 ? new LRUCache<string, Entry>({ max: KEY_CACHE_MAX, ttl: ttlMs }) : undefined;
  /** Key hashes that verified; refreshed at each verification. */
  const valid = new LRUCache<string, true>({ max: KEY_CACHE_MAX, ttl: KNOWN_KEY_TTL_MS });
  const lookUp = (id: string, key: string): Promise<AuthenticatedPartner | null> => {
    const partner = verify(key);
    partner.then(
      (found) => {
        if (found) valid.set(id, true);
        else valid.delete(id);
      },
      () => {},
    );
    if (!cached) return partner;
    const entry: Entry = { partner };
    cached.set(id, entry);
    const forget = () => {
      if (cached.peek(id) === entry) cached.delete(id);
    };
    partner.then((found) => {
      if (found) entry.verified = found;
      else forget();
    }, forget);
    return partner;
  };
  return (key, unknownKey) => {
    const id = hash('sha256', key, 'base64');
    const hit = cached?.get(id);
    // Once verified, the partner itself: a partner's request then passes the key check without a promise.
    if (hit) return hit.verified ?? hit.partner;
    if (!unknownKey || valid.has(id)) return lookUp(id, key);
    return andThen(unknownKey(), () => lookUp(id, key));
  };
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
  async (
    app: FastifyInstance,
    options: { verify: (key: string) => Promise<AuthenticatedPartner | null>; cacheTtlMs?: number },
  ) => {
    const verify = verifiedKeyCache(options.verify, options.cacheTtlMs ?? KEY_CACHE_TTL_MS);
    app.decorateRequest('partner', null);
    /**
     * The key's partner, checked and counted; at once when the key is cached and limits are in memory. Only
     * a key not known valid meets the failed-key budget (rate-limit.ts): a valid key is always verified.
     */
    const authenticate = (request: FastifyRequest, reply: FastifyReply, surface: Surface, key: string): Maybe<void> =>
      andThen(
        verify(key, () => app.rateLimits.refuseGuessing(request, surface)),
        (partner) => {
          if (!partner)
            return andThen(app.rateLimits.failedKey(request, surface), (budget) => {
              reply.headers(rateLimitHeaders(budget));
              throw unauthenticated('Invalid API key');
            });
          return andThen(app.rateLimits.partner(partner.id, surface), (budget) => {
            reply.headers(rateLimitHeaders(budget));
            request.partner = partner;
          });
        },
      );
    // Callback-style, and a keyless request counted in memory answers at once: no promise, no microtask hop
    // for the public lookups.
    app.addHook('onRequest', (request, reply, done) => {
      const route = request.routeOptions.url;
      if (route !== undefined && UNLIMITED.has(route)) return done();
      const surface = route === undefined ? surfaceOf(request.url) : surfaceOfRoute(route);
      const key = surface === 'partner' || surface === 'graphql' ? presentedKey(request)?.trim() : undefined;
      const passed = () =>
        done(
          key || surface !== 'partner'
            ? undefined
            : unauthenticated('Missing API key: send it in the x-api-key header'),
        );
      let checked: Maybe<void>;
      try {
        checked = key
          ? authenticate(request, reply, surface, key)
          : andThen(app.rateLimits.address(request, surface), (budget) => {
              reply.headers(rateLimitHeaders(budget));
            });
      } catch (err) {
        return done(err as Error);
      }
      if (checked instanceof Promise) checked.then(passed, done);
      else passed();
    });
  },
);
