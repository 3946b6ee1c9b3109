import { operationFromDocument, Supergraph as PlannerSupergraph } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import type { GatewayExecutionResult, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  type SelectionSetNode,
  validate,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { Supergraph } from '../gateway/supergraph.js';

/** graphql-jit (with the lodash helpers it loads) is needed only once an operation first runs. */
let jit: Promise<typeof import('graphql-jit')> | undefined;
const loadJit = () => {
  jit ??= import('graphql-jit');
  return jit;
};

type Executor = (
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
  context: unknown,
) => Promise<GatewayExecutionResult>;

/**
 * One compiled execution per request, when the gateway would make exactly one fetch from one in-process
 * subgraph: the operation is planned once (the gateway's own planner over the same supergraph), and if the
 * plan is a single fetch the *client's* operation is compiled with graphql-jit against that subgraph's
 * schema and run directly. A single-fetch plan means that subgraph answers every field, so the answer is
 * what the gateway would forward and re-shape, minus the second execution and the re-shaping. Anything
 * else — several fetches, a remote subgraph, a document the subgraph schema does not validate — keeps
 * the gateway. The resolvers are the same functions either way.
 */
export class CompiledOperations {
  private readonly planner: QueryPlanner;
  private readonly apiSchema;
  /** The API schema as graphql-js builds it: the schema Apollo Gateway would serve from this supergraph. */
  readonly schema: GraphQLSchema;
  private readonly local: Map<string, GraphQLSchema>;
  /** Per parsed document (Apollo Server and the REST table keep one object per operation text). */
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, Executor | null>>();

  constructor(supergraph: Supergraph, remote: readonly string[] = []) {
    // Parsed without locations: the planner's schema keeps every node it was built from, and with them
    // each token of the supergraph's text for error positions that a composed supergraph never needs.
    const planned = PlannerSupergraph.build(parse(supergraph.sdl, { noLocation: true }));
    this.planner = new QueryPlanner(planned);
    this.apiSchema = planned.apiSchema();
    this.schema = this.apiSchema.toGraphQLJSSchema();
    this.local = new Map(supergraph.subgraphs.filter((s) => !remote.includes(s.name)).map((s) => [s.name, s.schema]));
  }

  /** The compiled executor for this operation, or null when it needs the gateway. Cached per document. */
  executorFor(document: DocumentNode, operationName?: string | null): Executor | null {
    let byName = this.byDocument.get(document);
    if (!byName) {
      byName = new Map();
      this.byDocument.set(document, byName);
    }
    const key = operationName ?? '';
    let executor = byName.get(key);
    if (executor === undefined) {
      executor = this.compile(document, operationName ?? undefined);
      byName.set(key, executor);
    }
    return executor;
  }

  private compile(document: DocumentNode, operationName?: string): Executor | null {
    let serviceName: string;
    try {
      const operation = operationFromDocument(this.apiSchema, document, { operationName });
      const node = this.planner.buildQueryPlan(operation).node;
      if (node?.kind !== 'Fetch' || node.requires || node.inputRewrites?.length || node.outputRewrites?.length) {
        return null;
      }
      serviceName = node.serviceName;
    } catch {
      // Not plannable here (an invalid operation): the gateway gives the error it always gave.
      return null;
    }
    const schema = this.local.get(serviceName);
    if (!schema || validate(schema, document).length) return null;
    const shape = stringLeafShape(schema, document, operationName);
    // Compiled at the first run, not here: the REST routes ask for their executors at start-up, and the
    // generated functions of every route would be held by processes that never serve most of them.
    // Undefined until then; null if graphql-jit refused the document.
    let compiled: CompiledQuery | null | undefined;
    /** The same operation with String's serialiser, for an answer that must not be given as it came. */
    let serialising: CompiledQuery | null | undefined;
    const jitCompile = async (disableLeafSerialization: boolean): Promise<CompiledQuery | null> => {
      const { compileQuery, isCompiledQuery } = await loadJit();
      const result = compileQuery(schema, document, operationName, {
        disablingCapturingStackErrors: true,
        disableLeafSerialization,
      });
      return isCompiledQuery(result) ? result : null;
    };
    const run = (query: CompiledQuery | null, variables: Record<string, unknown> | undefined, context: unknown) =>
      query
        ? query.query(undefined, context, variables ?? {})
        : // graphql-jit refused a document that validated and plans as one fetch: run it uncompiled.
          execute({ schema, document, operationName, variableValues: variables ?? {}, contextValue: context });
    return async (_document, _name, variables, context) => {
      if (compiled === undefined) {
        const made = await jitCompile(shape !== null);
        // Another first run may have compiled it during the wait.
        if (compiled === undefined) compiled = made;
      }
      let result = await run(compiled, variables, context);
      // graphql-js turns a number or boolean a resolver gave a String field into a string, and refuses
      // anything else with a field error: an answer that is not all strings is asked again, serialised.
      if (shape && compiled && !stringsWhere(result.data, shape)) {
        if (serialising === undefined) serialising = await jitCompile(false);
        result = await run(serialising, variables, context);
      }
      // As the gateway reports a subgraph's errors (downstreamServiceError): the message and code kept,
      // the subgraph named, the original error kept for the log and for formatError.
      const errors = result.errors?.map(
        (error) =>
          new GraphQLError(error.message, {
            originalError: error,
            path: error.path,
            extensions: {
              ...error.extensions,
              code: error.extensions?.code ?? 'DOWNSTREAM_SERVICE_ERROR',
              serviceName,
            },
          }),
      );
      return errors?.length ? { data: result.data, errors } : { data: result.data };
    };
  }

  /**
   * Wraps a gateway executor: a compiled operation runs directly, any other goes to the gateway. The
   * request has already been parsed, validated and priced by Apollo Server and its plugins.
   */
  wrap(
    gatewayExecutor: (rc: GatewayGraphQLRequestContext) => Promise<GatewayExecutionResult>,
  ): (rc: GatewayGraphQLRequestContext) => Promise<GatewayExecutionResult> {
    return async (rc) => {
      const executor = this.executorFor(rc.document, rc.operationName ?? rc.request.operationName);
      if (!executor) return gatewayExecutor(rc);
      const result = await executor(rc.document, rc.operationName, rc.request.variables, rc.context);
      // No data at all: the variables did not coerce, so no resolver ran. The gateway words and codes
      // that refusal (a 400 naming the variable), so it answers this one.
      return result.data === undefined ? gatewayExecutor(rc) : result;
    };
  }
}

/** Where an all-String answer has its leaves: a response key maps to its sub-selection, or null for a leaf. */
export type StringShape = Map<string, StringShape | null>;

/**
 * The shape of the operation's answer when it is a query whose every leaf is a String, else null. Such an
 * operation is compiled without graphql-jit's leaf serialisation: with it, each leaf of each list item
 * calls a checker with its source location and response path built as fresh arrays, a large share of
 * what a batch allocates. String's serialiser hands a string back as it is; `stringsWhere` catches
 * whatever else a resolver might give. Other types keep their serialisers: an enum's internal value is
 * not its name, and graphql-js turns SQLite's 0/1 into booleans and PostgreSQL's int8 text into numbers.
 */
export function stringLeafShape(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string,
): StringShape | null {
  const operation = getOperationAST(document, operationName);
  const root = schema.getQueryType();
  if (operation?.operation !== 'query' || !root) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const into = (shape: StringShape, parent: GraphQLNamedType, selections: SelectionSetNode): boolean => {
    for (const selection of selections.selections) {
      if (selection.kind !== Kind.FIELD) {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
        if (!fragment) return false;
        const on = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        if (!on || !into(shape, on, fragment.selectionSet)) return false;
        continue;
      }
      const key = selection.alias?.value ?? selection.name.value;
      if (selection.name.value === '__typename') {
        if (shape.get(key)) return false;
        shape.set(key, null);
        continue;
      }
      const field =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) return false;
      const type = getNamedType(field.type);
      if (!selection.selectionSet) {
        // A custom scalar cannot be named String: the name is the built-in's.
        if (!isScalarType(type) || type.name !== 'String' || shape.get(key)) return false;
        shape.set(key, null);
        continue;
      }
      let sub = shape.get(key);
      if (sub === null) return false;
      if (!sub) {
        sub = new Map();
        shape.set(key, sub);
      }
      if (!into(sub, type, selection.selectionSet)) return false;
    }
    return true;
  };
  const shape: StringShape = new Map();
  return into(shape, root, operation.selectionSet) ? shape : null;
}

/** Whether every leaf of `data` is a string or null (lists of them included), as `shape` places them. */
export function stringsWhere(data: unknown, shape: StringShape): boolean {
  if (data === null || data === undefined) return true;
  if (Array.isArray(data)) {
    for (const item of data) if (!stringsWhere(item, shape)) return false;
    return true;
  }
  if (typeof data !== 'object') return false;
  const record = data as Record<string, unknown>;
  for (const key in record) {
    const sub = shape.get(key);
    if (sub === undefined) return false;
    if (!(sub === null ? leafOfStrings(record[key]) : stringsWhere(record[key], sub))) return false;
  }
  return true;
}

function leafOfStrings(value: unknown): boolean {
  if (value === null || typeof value === 'string') return true;
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!leafOfStrings(item)) return false;
  return true;
}
