import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from './unavailable.js';

/** One request's first database failure of the "cannot answer now" kind, until its answer is sent. */
interface Scope {
  failure: unknown;
  readonly raw: ServerResponse;
}

const scopes = new AsyncLocalStorage<Scope>();

/**
 * When a request last saw the database unavailable: until some request has, a statement does not even
 * look up its scope, so a healthy database costs each statement one clock read.
 */
let lastFailureAt = Number.NEGATIVE_INFINITY;
const LOOK_FOR_MS = 60_000;

/**
 * The failure to answer a statement with at once: the one an earlier statement of the same request met
 * while its answer is not sent yet. A request's statements run one after another (a key, a read, the
 * balance for a header), and each would otherwise wait out its own bound on a stalled or locked database
 * — twice the statement timeout or more before the 503. Work that outlives the answer (a settlement
 * after delivery) runs as usual.
 */
export function earlierFailure(): unknown {
  if (performance.now() - lastFailureAt > LOOK_FOR_MS) return undefined;
  const scope = scopes.getStore();
  return scope && scope.failure !== undefined && !scope.raw.headersSent ? scope.failure : undefined;
}

/** Remembers a statement's failure for the rest of its request, if the database could not answer it. */
export function recordFailure(err: unknown): void {
  const scope = scopes.getStore();
  if (!scope || scope.failure !== undefined || !isDatabaseUnavailable(err)) return;
  scope.failure = err;
  lastFailureAt = performance.now();
}

/**
 * Gives each request a scope for `earlierFailure`, from its pre-validation on (after the body is read:
 * its stream's events run outside any scope entered before) through its handler. Register it before any
 * hook that queries the database. The key check runs earlier, on `onRequest`, and its failure ends the
 * request anyway.
 */
export function scopeDatabaseFailures(http: FastifyInstance): void {
  http.addHook('preValidation', (_request, reply, done) => {
    scopes.run({ failure: undefined, raw: reply.raw }, done);
  });
}
