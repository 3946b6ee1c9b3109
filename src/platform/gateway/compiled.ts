import { operationFromDocument, Supergraph as PlannerSupergraph } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import type { GatewayExecutionResult, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import {
  type DocumentNode,
  execute,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  parse,
  validate,
  valueFromASTUntyped,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { Supergraph } from './supergraph.js';

/** graphql-jit (with the lodash helpers it loads) is needed only once an operation first runs. */
let jit: Promise<typeof import('graphql-jit')> | undefined;
const loadJit = () => {
  jit ??= import('graphql-jit');
  return jit;
};

export type Executor = (
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
    // Compiled at the first run, not here: the REST routes ask for their executors at start-up, and the
    // generated functions of every route would be held by processes that never serve most of them.
    // Undefined until then; null if graphql-jit refused the document.
    let compiled: CompiledQuery | null | undefined;
    const defaults = variableDefaults(document, operationName);
    return async (_document, _name, given, context) => {
      const variables = defaults.length ? withDefaults(given, defaults) : given;
      if (compiled === undefined) {
        const { compileQuery, isCompiledQuery } = await loadJit();
        const made = compileQuery(schema, document, operationName, { disablingCapturingStackErrors: true });
        // Another first run may have compiled it during the wait.
        compiled ??= isCompiledQuery(made) ? made : null;
      }
      const result = await (compiled
        ? compiled.query(undefined, context, variables ?? {})
        : // graphql-jit refused a document that validated and plans as one fetch: run it uncompiled.
          execute({ schema, document, operationName, variableValues: variables ?? {}, contextValue: context }));
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
      // Variables that do not coerce run nothing either way: the gateway words and codes that refusal.
      const coerces =
        getVariableValues(this.schema, rc.operation.variableDefinitions ?? [], rc.request.variables ?? {}).coerced !==
        undefined;
      return executor && coerces
        ? executor(rc.document, rc.operationName, rc.request.variables, rc.context)
        : gatewayExecutor(rc);
    };
  }
}

/** The literal defaults of an operation's variables (`$page: Int! = 1`), as a client would send them. */
function variableDefaults(document: DocumentNode, operationName?: string): [string, unknown][] {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  return definitions.flatMap((d) =>
    d.defaultValue ? [[d.variable.name.value, valueFromASTUntyped(d.defaultValue)] as [string, unknown]] : [],
  );
}

/**
 * The variables with each absent one set to its default. graphql-jit refuses a non-null variable with a
 * default that the request leaves out ("was not provided"), where graphql-js and the spec use the default.
 */
function withDefaults(given: Record<string, unknown> | undefined, defaults: [string, unknown][]) {
  const variables = { ...given };
  for (const [name, value] of defaults) if (!(name in variables)) variables[name] = value;
  return variables;
}
