import {
  type DocumentNode,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { type CreditsAnnouncement, OperationCharge, remainingAfter } from '../credits/charging.js';
import type { PriceTable } from '../credits/prices.js';
import { collectRootFields, type RootField } from '../credits/root-fields.js';
import { ErrorCode } from '../errors.js';
import type { RequestContext } from '../graphql/context.js';
import { httpStatusOfResult, logFailedFields } from '../graphql/errors.js';
import { fragmentsOf } from '../graphql/fragments.js';
import {
  costRefusal,
  estimateCost,
  type GraphqlLimits,
  knownRootOperationRule,
  limitsValidationRule,
} from '../graphql/limits.js';
import type { CompiledOperations, Executor } from './compiled.js';

/** A query text, parsed and validated once. */
export interface ParsedDocument {
  document: DocumentNode;
  operations: readonly OperationDefinitionNode[];
  /** False when the document fails validation: Apollo's pipeline words those errors. */
  valid: boolean;
}

/**
 * One operation of a document, prepared at its first request: what it needs on every later one. Cost and
 * root fields are kept once known not to depend on the variables (no list or page size given by a
 * variable; no `@skip`/`@include`), which is what clients send for a lookup or a search.
 */
export interface PreparedOperation {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly operationName: string | undefined;
  /** The compiled single-fetch executor, or null when the operation needs Apollo Gateway. */
  readonly execute: Executor | null;
  cost?: number;
  fields?: readonly RootField[];
}

/** An operation's answer, as every interface sends it (its own shape around these parts). */
export interface OperationAnswer {
  status: number;
  /** Absent when the operation never ran (variables that do not coerce, a refused hold, the cost limit). */
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
  credits: CreditsAnnouncement;
}

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * Distinct query texts kept, and the longest one kept: clients send a handful of short documents
 * (variables carry the data), so the cache stays a few MiB against texts that vary.
 */
const MAX_PARSED = 250;
const MAX_CACHED_QUERY = 8192;

/**
 * The one operation pipeline. `parse` and `prepare` work an operation out once (parse, validate, limits,
 * plan, price, compile); `run` answers it: variables coerced, cost checked, credits held, executed,
 * errors formatted, the charge closed (settled on delivery, see credits/charging.ts) and announced. REST
 * routes and `/graphql` run operations here; Apollo Server's pipeline (GET, batches, persisted queries,
 * multi-fetch plans) and the routers price them with `priceOperation` and charge through the same
 * `OperationCharge`.
 */
export class OperationPipeline {
  private readonly rules;
  // A text that does not parse is remembered as false (the cache holds no null).
  private readonly parsed = new LRUCache<string, ParsedDocument | false>({ max: MAX_PARSED });
  private readonly prepared = new WeakMap<DocumentNode, Map<string, PreparedOperation | null>>();

  constructor(
    private readonly options: {
      compiled: CompiledOperations;
      prices: PriceTable;
      limits: GraphqlLimits;
      formatError: FormatError;
    },
  ) {
    this.rules = [...specifiedRules, knownRootOperationRule, limitsValidationRule(options.limits)];
  }

  /** The GraphQL limits every operation is held to. */
  get limits(): GraphqlLimits {
    return this.options.limits;
  }

  /** The API schema operations run against. */
  get schema(): GraphQLSchema {
    return this.options.compiled.schema;
  }

  /** A query text parsed (within the token limit) and validated, cached by text; null when it does not parse. */
  parse(query: string): ParsedDocument | null {
    if (query.length > MAX_CACHED_QUERY) return this.parseUncached(query);
    const known = this.parsed.get(query);
    if (known !== undefined) return known || null;
    const entry = this.parseUncached(query);
    this.parsed.set(query, entry ?? false);
    return entry;
  }

  private parseUncached(query: string): ParsedDocument | null {
    try {
      const document = parse(query, { maxTokens: this.options.limits.maxTokens });
      const operations = document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
      return { document, operations, valid: validate(this.schema, document, this.rules).length === 0 };
    } catch {
      return null;
    }
  }

  /** The named operation (or the only one) of a document, prepared once per document object. */
  prepare(document: DocumentNode, operationName?: string): PreparedOperation | undefined {
    let byName = this.prepared.get(document);
    if (!byName) {
      byName = new Map();
      this.prepared.set(document, byName);
    }
    const key = operationName ?? '';
    let entry = byName.get(key);
    if (entry === undefined) {
      const operation = getOperationAST(document, operationName);
      entry = operation
        ? { document, operation, operationName, execute: this.options.compiled.executorFor(document, operationName) }
        : null;
      byName.set(key, entry);
    }
    return entry ?? undefined;
  }

  /** The variables as graphql-js coerces them (what execution sees), or the errors naming what is wrong. */
  coerce(
    prepared: PreparedOperation,
    raw: Record<string, unknown>,
  ): { values: Record<string, unknown>; errors?: undefined } | { values?: undefined; errors: GraphQLError[] } {
    // graphql-js's coercion with its default error count, as Apollo Gateway runs it.
    const result = getVariableValues(this.schema, prepared.operation.variableDefinitions ?? [], raw);
    if (result.coerced) return { values: result.coerced };
    // The gateway's code for the same refusal: the caller's input, a 400.
    const errors = result.errors.map(
      (e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: ErrorCode.BAD_USER_INPUT } }),
    );
    return { errors };
  }

  /** The root fields the operation will execute with these (coerced) variables, priced. */
  fields(prepared: PreparedOperation, values: Record<string, unknown>): readonly RootField[] {
    if (prepared.fields) return prepared.fields;
    const collected = collectRootFields(
      prepared.operation,
      fragmentsOf(prepared.document),
      values,
      this.options.prices,
    );
    if (!collected.directed) prepared.fields = collected.fields;
    return collected.fields;
  }

  /** The operation's estimated cost (see limits.ts), kept when it reads no variable. */
  cost(prepared: PreparedOperation, raw: Record<string, unknown>): number {
    if (prepared.cost !== undefined) return prepared.cost;
    const { document, operation } = prepared;
    const estimate = estimateCost(this.schema, document, operation, raw, this.options.limits.costListSize);
    if (!estimate.readVariables) prepared.cost = estimate.cost;
    return estimate.cost;
  }

  /**
   * Runs a prepared operation that has a compiled executor: nothing is held for input that is refused,
   * and whatever is held is settled by the answer (see credits/charging.ts). `checkCost` applies the
   * GraphQL cost limit (REST routes are fixed operations whose sizes their schemas bound). A refused hold
   * is answered as GraphQL words it; REST callers read the same errors.
   */
  async run(
    prepared: PreparedOperation,
    raw: Record<string, unknown>,
    ctx: RequestContext,
    options: { checkCost?: boolean } = {},
  ): Promise<OperationAnswer> {
    const execute = prepared.execute;
    if (!execute) throw new Error('OperationPipeline.run needs a compiled operation');
    const coerced = this.coerce(prepared, raw);
    if (coerced.errors) return this.refusal(ctx, coerced.errors);
    if (options.checkCost) {
      const cost = this.cost(prepared, raw);
      if (cost > this.options.limits.maxCost) {
        ctx.log.info({ cost, maxCost: this.options.limits.maxCost }, 'GraphQL operation refused: cost');
        return this.refused(ctx, [costRefusal(prepared.operation, cost, this.options.limits)]);
      }
    }
    const { ledger } = ctx.services;
    let charge: OperationCharge;
    try {
      // Awaited only when it is a promise (a paid call): a free call opens and closes without a microtask hop.
      const opened = OperationCharge.open(ledger, ctx, this.fields(prepared, coerced.values));
      charge = opened instanceof Promise ? await opened : opened;
    } catch (err) {
      return this.refusal(ctx, [asGraphQLError(err)]);
    }
    let result: Awaited<ReturnType<Executor>>;
    try {
      // The raw variables: the executor coerces them itself, as graphql-js execution does.
      result = await execute(prepared.document, prepared.operationName, raw, ctx);
    } catch (err) {
      await charge.close({ data: null });
      throw err;
    }
    const failed = result.errors?.length ? result.errors : undefined;
    if (failed) logFailedFields(failed, ctx.log);
    const errors = failed && this.formatErrors(failed);
    const data = (result.data ?? null) as Record<string, unknown> | null;
    const closed = charge.close({ data, errors });
    const credits = closed instanceof Promise ? await closed : closed;
    return { status: httpStatusOfResult({ data, errors }) ?? 200, data, errors, credits };
  }

  /** What a caller sees of an error: the same function Apollo Server applies. */
  get formatError(): FormatError {
    return this.options.formatError;
  }

  formatErrors(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
    return errors.map((error) => this.options.formatError(error.toJSON(), error));
  }

  /** An operation refused before it ran: free, with the partner's balance as it stands. */
  private refusal(ctx: RequestContext, errors: readonly GraphQLError[]): Promise<OperationAnswer> {
    return this.refused(ctx, this.formatErrors(errors));
  }

  private async refused(ctx: RequestContext, errors: GraphQLFormattedError[]): Promise<OperationAnswer> {
    const credits = ctx.partner ? await remainingAfter(ctx.services.ledger, ctx, ctx.partner.id, 0, 0) : { charged: 0 };
    return { status: httpStatusOfResult({ errors }) ?? 400, errors, credits };
  }
}

/** A refusal or failure thrown before execution, as a GraphQL error (an AppError's code and details kept). */
function asGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  const error = err instanceof Error ? err : new Error(String(err));
  return new GraphQLError(error.message, { originalError: error });
}

/**
 * The priced root fields of one operation, from its raw variables, for a caller that runs it elsewhere
 * (Apollo Server's pipeline, the Hive Gateway plugin, the Router coprocessor). Undefined when it cannot
 * run (unknown operation name, variables that do not coerce): execution then fails before any resolver,
 * so it is free.
 */
export function priceOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  raw: Record<string, unknown> | null | undefined,
  prices: PriceTable,
): RootField[] | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const { coerced } = getVariableValues(schema, operation.variableDefinitions ?? [], raw ?? {}, { maxErrors: 1 });
  if (!coerced) return undefined;
  return collectRootFields(operation, fragmentsOf(document), coerced, prices).fields;
}
