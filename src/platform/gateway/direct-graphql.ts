import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  buildSchema,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { creditHeaders, RequestCharge } from '../credits/charging.js';
import { collectRootFields, type RootField } from '../credits/root-fields.js';
import { httpStatusOfResult } from '../graphql/errors.js';
import { estimateCost, type GraphqlLimits, knownRootOperationRule, limitsValidationRule } from '../graphql/limits.js';
import { contextFor } from '../graphql/request-context.js';
import { hasNullVariable, nullVariableErrors, requiredUses } from '../graphql/variables.js';
import { jsonText } from '../http/json-text.js';
import type { Services } from '../services.js';
import type { PriceTable } from './prices.js';
import { type GraphqlServer, logFailedFields } from './server.js';

/** A query text, parsed and validated once, with what each of its operations needs to run directly. */
interface Prepared {
  document: DocumentNode;
  fragments: Record<string, FragmentDefinitionNode>;
  operations: OperationDefinitionNode[];
  /** False when the document fails validation: Apollo words those errors. */
  valid: boolean;
}

/**
 * What an operation needs on every request, worked out at its first: its variables' coercion, and its
 * cost and root fields where they do not depend on the variables (no list or page size given by a
 * variable; no `@skip`/`@include`), which is what clients send for a lookup or a search.
 */
interface OperationPlan {
  coerce: Coerce;
  cost?: number;
  fields?: readonly RootField[];
}

/**
 * Distinct query texts kept, and the longest one taken: clients send a handful of short documents
 * (variables carry the data). Together they bound the cache to a few MiB against texts that vary, and a
 * huge document (an attack on the limits) is parsed once, by Apollo, not once here and again there.
 */
const MAX_PREPARED = 250;
const MAX_QUERY_LENGTH = 8192;

/**
 * `/graphql` without Apollo Server's request pipeline, for the operations that need nothing from it: a
 * JSON POST of a valid query whose plan is one fetch from an in-process subgraph (the compiled executor
 * of `CompiledOperations`). It applies the same validation rules, cost limit, credit hold and settlement,
 * error formatting and HTTP status as the pipeline; anything else — GET, batches, persisted queries,
 * other media types, invalid documents, variables that do not coerce, a refused credit hold — returns
 * undefined so the caller hands the request to Apollo, which answers it exactly as before.
 */
export function directGraphql(opts: {
  graphql: GraphqlServer;
  apiSdl: string;
  prices: PriceTable;
  limits: GraphqlLimits;
  services: Services;
}) {
  const { compiled, formatError } = opts.graphql;
  // Without locations: the schema keeps its AST nodes, and with locations every token of the API schema's text.
  const schema = buildSchema(opts.apiSdl, { noLocation: true });
  const rules = [...specifiedRules, knownRootOperationRule, limitsValidationRule(opts.limits)];
  // A text that does not parse is remembered as false (the cache holds no null).
  const prepared = new LRUCache<string, Prepared | false>({ max: MAX_PREPARED });

  const prepareUncached = (query: string): Prepared | null => {
    try {
      const document = parse(query, { maxTokens: opts.limits.maxTokens });
      const fragments = Object.fromEntries(
        document.definitions
          .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
          .map((d) => [d.name.value, d]),
      );
      const operations = document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
      return { document, fragments, operations, valid: validate(schema, document, rules).length === 0 };
    } catch {
      return null;
    }
  };
  const prepare = (query: string): Prepared | null => {
    const known = prepared.get(query);
    if (known !== undefined) return known || null;
    const entry = prepareUncached(query);
    prepared.set(query, entry ?? false);
    return entry;
  };

  const plans = new WeakMap<OperationDefinitionNode, OperationPlan>();
  const planOf = (operation: OperationDefinitionNode): OperationPlan => {
    let plan = plans.get(operation);
    if (!plan) {
      plan = { coerce: variableCoercion(schema, operation) };
      plans.set(operation, plan);
    }
    return plan;
  };

  const operationOf = ({ operations }: Prepared, name: string | undefined): OperationDefinitionNode | undefined => {
    if (name === undefined) return operations.length === 1 ? operations[0] : undefined;
    return operations.find((o) => o.name?.value === name);
  };

  /** Query texts of persisted-query hashes registered here (their hash checked), for `refuseNullVariables`. */
  const persisted = new LRUCache<string, string>({ max: MAX_PREPARED });
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
    const entry = query.length > MAX_QUERY_LENGTH ? prepareUncached(query) : prepare(query);
    const operation = entry?.valid ? operationOf(entry, name ?? undefined) : undefined;
    if (!entry || !operation) return;
    const errors = nullVariableErrors(
      requiredUses(schema, entry.document, operation),
      values as Record<string, unknown>,
    );
    if (!errors.length) return;
    reply.code(400).headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    return jsonText({ errors: errors.map((error) => formatError(error.toJSON(), error)) }, '\n');
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
    if (body.query.length > MAX_QUERY_LENGTH) return;
    if (body.extensions !== undefined) return;
    const { operationName, variables } = body;
    if (operationName != null && typeof operationName !== 'string') return;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return;
    const entry = prepare(body.query);
    if (!entry?.valid) return;
    const operation = operationOf(entry, operationName ?? undefined);
    if (!operation) return;
    const execute = compiled.executorFor(entry.document, operationName ?? undefined);
    if (!execute) return;
    const raw = (variables ?? {}) as Record<string, unknown>;
    const plan = planOf(operation);
    const coerced = plan.coerce(raw);
    if (!coerced) return;
    let cost = plan.cost;
    if (cost === undefined) {
      const estimate = estimateCost(schema, entry.document, operation, raw, opts.limits.costListSize);
      cost = estimate.cost;
      if (!estimate.readVariables) plan.cost = cost;
    }
    if (cost > opts.limits.maxCost) return;
    const ctx = contextFor(request, opts.services);
    let charge: RequestCharge;
    try {
      let fields = plan.fields;
      if (!fields) {
        const collected = collectRootFields(operation, entry.fragments, coerced, opts.prices);
        fields = collected.fields;
        if (!collected.directed) plan.fields = fields;
      }
      // Awaited only when it is a promise (a paid call): a free call opens and closes without a microtask hop.
      const opened = RequestCharge.open(ctx, fields);
      charge = opened instanceof Promise ? await opened : opened;
    } catch {
      // A refusal (no key, not enough credits) or a database outage: Apollo's pipeline words it.
      return;
    }
    let result: Awaited<ReturnType<typeof execute>>;
    try {
      result = await execute(entry.document, operationName ?? undefined, raw, ctx);
    } catch (err) {
      await charge.close({ data: null });
      throw err;
    }
    const errors = result.errors?.length ? result.errors : undefined;
    if (errors) logFailedFields(errors, ctx.log);
    const formatted: GraphQLFormattedError[] | undefined = errors?.map((error) => formatError(error.toJSON(), error));
    const data = (result.data ?? null) as Record<string, unknown> | null;
    const closed = charge.close({ data, errors: formatted });
    const credits = closed instanceof Promise ? await closed : closed;
    reply.code(httpStatusOfResult({ data, errors: formatted }) ?? 200);
    reply.headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...creditHeaders(credits),
    });
    // Apollo's field order and trailing newline, so both paths answer the same bytes.
    return jsonText({ errors: formatted, data, extensions: { credits } }, '\n');
  };
}

/** An operation's variables as graphql-js coerces them, or undefined when they do not coerce. */
type Coerce = (raw: Record<string, unknown>) => Record<string, unknown> | undefined;

/**
 * How to coerce an operation's variables: graphql-js's own coercion (what Apollo runs), so both paths
 * refuse the same input — wrong types, nulls, missing values, unknown input-object fields — and fill in
 * the same defaults. A refusal is left to Apollo, which words it.
 */
function variableCoercion(schema: GraphQLSchema, operation: OperationDefinitionNode): Coerce {
  const definitions = operation.variableDefinitions ?? [];
  return (raw) => getVariableValues(schema, definitions, raw, { maxErrors: 1 }).coerced;
}

const isJson = (type: string | undefined) => type !== undefined && /^application\/json\s*(;|$)/i.test(type);

/** No Accept, or one a plain JSON answer satisfies first (Apollo negotiates anything else itself). */
const acceptsJson = (accept: string | undefined) =>
  accept === undefined ||
  accept === '*/*' ||
  (/application\/json/i.test(accept) && !/graphql-response|multipart/i.test(accept));
