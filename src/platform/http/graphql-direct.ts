import { createHash } from 'node:crypto';
import type { GraphQLRequest } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { type CreditsAnnouncement, creditHeaders } from '../credits/charging.js';
import { UNAVAILABLE_RETRY_AFTER_S } from '../errors.js';
import type { OperationAnswer } from '../gateway/pipeline.js';
import type { GraphqlServer } from '../gateway/server.js';
import { contextFor } from '../graphql/request-context.js';
import { hasNullVariable, nullVariableErrors, requiredUses } from '../graphql/variables.js';
import type { Services } from '../services.js';
import { jsonText } from './json-text.js';

/** Persisted-query texts remembered, as many as the pipeline keeps parsed documents. */
const MAX_PERSISTED = 250;
/** The longest query text answered here; Apollo Server takes longer ones. */
const MAX_DIRECT_QUERY = 8192;

/**
 * `/graphql` through the operation pipeline (gateway/pipeline.ts) for a JSON POST of a valid query whose
 * plan is one fetch from an in-process subgraph: the pipeline coerces, prices, holds, runs, settles and
 * words its errors. Batches (JSON arrays) are answered here, each operation as its own request. Anything
 * else — GET, persisted queries, other media types, invalid documents, multi-fetch plans — returns
 * undefined so the caller hands the request to Apollo Server, whose pipeline charges through the same
 * `OperationCharge`.
 */
export function directGraphql(opts: { graphql: GraphqlServer; services: Services }) {
  const { pipeline, apollo } = opts.graphql;
  const { schema } = pipeline;

  /** Query texts of persisted-query hashes registered here (their hash checked), for `refuseNullVariables`. */
  const persisted = new LRUCache<string, string>({ max: MAX_PERSISTED });
  const hashOf = (extensions: unknown): string | undefined => {
    const hash = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null | undefined)?.persistedQuery
      ?.sha256Hash;
    return typeof hash === 'string' ? hash : undefined;
  };

  /**
   * Every /graphql request, whichever path then runs it (this one, Apollo's pipeline, the compiled or
   * gateway executor): a variable given an explicit null where the operation needs a value (allowed by
   * validation when it has a default) is refused here as bad input, free, before anything runs or is
   * held. Undefined when there is none: only a request with a null variable costs more than a look.
   */
  const nullVariableRefusal = (given: unknown, get: boolean): GraphQLFormattedError[] | undefined => {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return;
    const source = given as Record<string, unknown>;
    // GET carries both as JSON text; whatever does not parse, Apollo refuses itself.
    const json = (value: unknown): unknown => {
      if (!get) return value;
      try {
        return typeof value === 'string' ? JSON.parse(value) : undefined;
      } catch {
        return undefined;
      }
    };
    const text = typeof source.query === 'string' ? source.query : undefined;
    // A persisted query's registration (hash and text): remembered once its hash checks, as Apollo does.
    if (text !== undefined && source.extensions !== undefined) {
      const hash = hashOf(json(source.extensions));
      if (hash !== undefined && !persisted.has(hash) && createHash('sha256').update(text).digest('hex') === hash) {
        persisted.set(hash, text);
      }
    }
    if (source.variables == null || (get && !String(source.variables).includes('null'))) return;
    const values = json(source.variables);
    if (typeof values !== 'object' || values === null || Array.isArray(values)) return;
    if (!hasNullVariable(values as Record<string, unknown>)) return;
    const query = text ?? persisted.get(hashOf(json(source.extensions)) ?? '');
    const name = source.operationName;
    if (query === undefined || (name != null && typeof name !== 'string')) return;
    const parsed = pipeline.parse(query);
    const prepared = parsed?.valid ? pipeline.prepare(parsed.document, name ?? undefined) : undefined;
    if (!prepared) return;
    const errors = nullVariableErrors(
      requiredUses(schema, prepared.document, prepared.operation),
      values as Record<string, unknown>,
    );
    return errors.length ? pipeline.formatErrors(errors) : undefined;
  };

  /**
   * One operation (a request body, or an item of a batch) through the pipeline, or undefined when Apollo
   * Server must answer it: persisted queries, invalid or long documents, multi-fetch plans.
   */
  const runDirect = (request: FastifyRequest, body: unknown): Promise<OperationAnswer> | undefined => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    const { query, operationName, variables, extensions } = body as Record<string, unknown>;
    // A huge document (an attack on the limits) is parsed once, by Apollo, not once here and again there.
    if (typeof query !== 'string' || query.length > MAX_DIRECT_QUERY || extensions !== undefined) return;
    if (operationName != null && typeof operationName !== 'string') return;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return;
    const parsed = pipeline.parse(query);
    const prepared = parsed?.valid ? pipeline.prepare(parsed.document, operationName ?? undefined) : undefined;
    if (!prepared?.execute) return;
    const ctx = contextFor(request, opts.services);
    return pipeline.run(prepared, (variables ?? {}) as Record<string, unknown>, ctx, { checkCost: true });
  };

  /**
   * A batch (a JSON array, as Apollo Client's BatchHttpLink sends): each operation runs as its own request
   * would, with its own limits, price, charge and errors, one after another; every operation counts
   * against the rate limit. The answer is a 200 holding one result per operation, in order; each is
   * settled when that answer is delivered.
   */
  const batch = async (request: FastifyRequest, reply: FastifyReply, items: unknown[]): Promise<string | Buffer> => {
    const refuse = (message: string, code = 'BAD_REQUEST') => {
      reply.code(400).headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      return jsonText({ errors: [{ message, extensions: { code } }] }, '\n');
    };
    const { maxBatch } = pipeline.limits;
    if (items.length === 0) return refuse('A batch needs at least one operation');
    if (items.length > maxBatch) {
      return refuse(`A batch may hold at most ${maxBatch} operations (GRAPHQL_MAX_BATCH)`, 'BAD_USER_INPUT');
    }
    // One stored answer per key: a batch's answers are several, so it cannot be replayed as one.
    if (request.headers['idempotency-key'] !== undefined) {
      return refuse('Idempotency-Key applies to a single operation: send the operations one by one');
    }
    // The request itself was counted by the auth hook; each further operation counts as a request of its own.
    const limits = request.server.rateLimits;
    for (let i = 1; i < items.length; i++) {
      await (request.partner ? limits.partner(request.partner.id, 'graphql') : limits.address(request, 'graphql'));
    }
    const results: Record<string, unknown>[] = [];
    let charged = 0;
    let remaining: number | undefined;
    for (const item of items) {
      const malformed = malformedItem(item);
      if (malformed) {
        results.push({ errors: [{ message: malformed, extensions: { code: 'BAD_REQUEST' } }] });
        continue;
      }
      const refused = nullVariableRefusal(item, false);
      if (refused) {
        results.push({ errors: refused });
        continue;
      }
      const direct = runDirect(request, item);
      if (direct) {
        const { errors, data, credits } = await direct;
        charged += credits.charged;
        remaining = credits.remaining ?? remaining;
        results.push({ errors, data, extensions: { credits } });
        continue;
      }
      const answer = await apollo.executeOperation(item as GraphQLRequest, {
        contextValue: contextFor(request, opts.services),
      });
      const single = answer.body.kind === 'single' ? answer.body.singleResult : { errors: [] };
      const credits = single.extensions?.credits as CreditsAnnouncement | undefined;
      if (credits) {
        charged += credits.charged;
        remaining = credits.remaining ?? remaining;
      }
      results.push(single as Record<string, unknown>);
    }
    reply.code(200).headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...creditHeaders({ charged, ...(remaining === undefined ? {} : { remaining }) }),
    });
    return jsonText(results, '\n');
  };

  /** Answers the request, or returns undefined (having sent and charged nothing) to leave it to Apollo. */
  return async (request: FastifyRequest, reply: FastifyReply): Promise<string | Buffer | undefined> => {
    const get = request.method === 'GET';
    if (get || request.method === 'POST') {
      const refused = nullVariableRefusal(get ? request.query : request.body, get);
      if (refused) {
        reply.code(400).headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        return jsonText({ errors: refused }, '\n');
      }
    }
    if (request.method !== 'POST' || !isJson(request.headers['content-type']) || !acceptsJson(request.headers.accept)) {
      return undefined;
    }
    if (Array.isArray(request.body)) return batch(request, reply, request.body);
    const direct = runDirect(request, request.body);
    if (!direct) return;
    const { status, errors, data, credits } = await direct;
    reply.code(status);
    if (status === 503) reply.header('retry-after', UNAVAILABLE_RETRY_AFTER_S);
    reply.headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...creditHeaders(credits),
    });
    // Apollo's field order and trailing newline, so both paths answer the same bytes.
    return jsonText({ errors, data, extensions: { credits } }, '\n');
  };
}

/**
 * Why a batch item is not an operation Apollo Server would take as a POST body, in its words; undefined
 * when it is one. Each item is checked as a single POST body is, so a malformed one is its own 400-coded
 * result, never a failure of the batch.
 */
function malformedItem(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'A batch item must be a JSON object';
  const { query, operationName, variables, extensions } = item as Record<string, unknown>;
  const object = (v: unknown) => v == null || (typeof v === 'object' && !Array.isArray(v));
  if (query != null && typeof query !== 'string') return '`query` in a POST body must be a string if provided.';
  if (operationName != null && typeof operationName !== 'string') {
    return '`operationName` in a POST body must be a string if provided.';
  }
  if (!object(variables)) return '`variables` in a POST body must be an object if provided.';
  if (!object(extensions)) return '`extensions` in a POST body must be an object if provided.';
  return undefined;
}

const isJson = (type: string | undefined) => type !== undefined && /^application\/json\s*(;|$)/i.test(type);

/** No Accept, or one a plain JSON answer satisfies first (Apollo negotiates anything else itself). */
const acceptsJson = (accept: string | undefined) =>
  accept === undefined ||
  accept === '*/*' ||
  (/application\/json/i.test(accept) && !/graphql-response|multipart/i.test(accept));
