import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { creditHeaders } from '../credits/charging.js';
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
 * words its errors. Anything else — GET, batches, persisted queries, other media types, invalid
 * documents, multi-fetch plans — returns undefined so the caller hands the request to Apollo Server,
 * whose pipeline charges through the same `OperationCharge`.
 */
export function directGraphql(opts: { graphql: GraphqlServer; services: Services }) {
  const { pipeline } = opts.graphql;
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
  const refuseNullVariables = (request: FastifyRequest, reply: FastifyReply): string | Buffer | undefined => {
    const get = request.method === 'GET';
    const source = (get ? request.query : request.body) as Record<string, unknown> | null;
    if (typeof source !== 'object' || source === null || Array.isArray(source)) return;
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
    if (!errors.length) return;
    reply.code(400).headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    return jsonText({ errors: pipeline.formatErrors(errors) }, '\n');
  };

  /** Answers the request, or returns undefined (having sent and charged nothing) to leave it to Apollo. */
  return async (request: FastifyRequest, reply: FastifyReply): Promise<string | Buffer | undefined> => {
    if (request.method === 'POST' || request.method === 'GET') {
      const refused = refuseNullVariables(request, reply);
      if (refused !== undefined) return refused;
    }
    if (request.method !== 'POST' || !isJson(request.headers['content-type']) || !acceptsJson(request.headers.accept)) {
      return undefined;
    }
    const body = request.body as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || typeof body.query !== 'string') return;
    // A huge document (an attack on the limits) is parsed once, by Apollo, not once here and again there.
    if (body.query.length > MAX_DIRECT_QUERY) return;
    if (body.extensions !== undefined) return;
    const { operationName, variables } = body;
    if (operationName != null && typeof operationName !== 'string') return;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return;
    const parsed = pipeline.parse(body.query);
    const prepared = parsed?.valid ? pipeline.prepare(parsed.document, operationName ?? undefined) : undefined;
    if (!prepared?.execute) return;
    const ctx = contextFor(request, opts.services);
    const answer = await pipeline.run(prepared, (variables ?? {}) as Record<string, unknown>, ctx, { checkCost: true });
    const { errors, data, credits } = answer;
    reply.code(answer.status);
    reply.headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...creditHeaders(credits),
    });
    // Apollo's field order and trailing newline, so both paths answer the same bytes.
    return jsonText({ errors, data, extensions: { credits } }, '\n');
  };
}

const isJson = (type: string | undefined) => type !== undefined && /^application\/json\s*(;|$)/i.test(type);

/** No Accept, or one a plain JSON answer satisfies first (Apollo negotiates anything else itself). */
const acceptsJson = (accept: string | undefined) =>
  accept === undefined ||
  accept === '*/*' ||
  (/application\/json/i.test(accept) && !/graphql-response|multipart/i.test(accept));
