import { type ApolloServerPlugin, type GraphQLResponse, HeaderMap } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLFormattedError,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import type { Config } from '../config.js';
import { ErrorCode } from '../errors.js';
import type { RequestContext } from './context.js';
import { fragmentsOf } from './fragments.js';

/** Bounds on the work one GraphQL operation may ask for, checked before it is planned or executed. */
export type GraphqlLimits = Config['graphqlLimits'];

/** Arguments whose value is the length of the list a field returns. */
const SLICING_ARGUMENTS = ['first', 'last', 'limit', 'perPage'];

const refusal = (limit: string, message: string) =>
  // `limit` survives Apollo's wrapping of validation errors; formatLimitError turns it into BAD_USER_INPUT.
  new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, limit } });

const fieldsOf = (type: GraphQLNamedType | undefined | null) =>
  isObjectType(type) || isInterfaceType(type) ? type.getFields() : undefined;

interface Shape {
  /** Fields selected at this level, fragments expanded. */
  fields: number;
  aliases: number;
  /** Nesting of selection sets; a fragment (inline or spread) counts as a level, as the query planner recurses into it. */
  depth: number;
}

/**
 * The shape of every operation of a document. Fragments are measured once each (a fragment spread twice
 * at every level must not cost 2^n here), and a fragment cycle, which validation reports, counts as empty.
 */
function measure(document: DocumentNode, operation: OperationDefinitionNode): Shape {
  const fragments = fragmentsOf(document);
  const memo = new Map<string, Shape>();
  const inProgress = new Set<string>();
  const empty: Shape = { fields: 0, aliases: 0, depth: 0 };

  const fragment = (name: string): Shape => {
    const known = memo.get(name);
    if (known) return known;
    const definition = fragments.get(name);
    if (!definition || inProgress.has(name)) return empty;
    inProgress.add(name);
    const shape = selectionSet(definition.selectionSet);
    inProgress.delete(name);
    memo.set(name, shape);
    return shape;
  };

  const selectionSet = (set: SelectionSetNode): Shape => {
    const shape = { ...empty };
    for (const selection of set.selections) {
      const inner =
        selection.kind === Kind.FRAGMENT_SPREAD
          ? fragment(selection.name.value)
          : selection.selectionSet
            ? selectionSet(selection.selectionSet)
            : empty;
      if (selection.kind === Kind.FIELD) {
        shape.fields += 1;
        if (selection.alias) shape.aliases += 1;
      } else {
        shape.fields += inner.fields;
      }
      shape.aliases += inner.aliases;
      shape.depth = Math.max(shape.depth, 1 + inner.depth);
    }
    return shape;
  };

  return selectionSet(operation.selectionSet);
}

/**
 * A validation rule refusing operations over the token-independent structural limits. It runs at the
 * document's root, before the other rules descend: when it refuses, it hands the visitor an empty
 * document, so no other rule (OverlappingFieldsCanBeMerged is quadratic in repeated fields) walks the
 * oversized one and the gateway never plans it.
 */
export function limitsValidationRule(limits: GraphqlLimits) {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      const errors: GraphQLError[] = [];
      for (const operation of document.definitions) {
        if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
        const shape = measure(document, operation);
        const name = operation.name ? `Operation ${operation.name.value}` : 'The operation';
        if (shape.aliases > limits.maxAliases) {
          errors.push(
            refusal(
              'GRAPHQL_MAX_ALIASES',
              `${name} uses ${shape.aliases} aliases; at most ${limits.maxAliases} are allowed (GRAPHQL_MAX_ALIASES)`,
            ),
          );
        }
        if (shape.fields > limits.maxRootFields) {
          errors.push(
            refusal(
              'GRAPHQL_MAX_ROOT_FIELDS',
              `${name} selects ${shape.fields} root fields; at most ${limits.maxRootFields} are allowed (GRAPHQL_MAX_ROOT_FIELDS)`,
            ),
          );
        }
        if (shape.depth > limits.maxDepth) {
          errors.push(
            refusal(
              'GRAPHQL_MAX_DEPTH',
              `${name} is nested ${shape.depth} levels deep; at most ${limits.maxDepth} are allowed (GRAPHQL_MAX_DEPTH)`,
            ),
          );
        }
      }
      if (!errors.length) return undefined;
      for (const error of errors) context.reportError(error);
      return { kind: Kind.DOCUMENT, definitions: [] } satisfies DocumentNode;
    },
  });
}

/**
 * Refuses an operation type the schema has no root for (mutation, subscription) at validation, as
 * graphql-js 17 does; graphql-js 16 only finds out when executing, after the credit plugin priced it.
 */
export function knownRootOperationRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const root = context.getSchema().getRootType(operation.operation);
      // The gateway runs queries and mutations; subscriptions are served over graphql-ws (WebSocket).
      if (root && operation.operation === 'subscription') {
        context.reportError(
          new GraphQLError('Subscriptions are served over graphql-ws: open a WebSocket to /graphql', {
            nodes: operation,
          }),
        );
        return;
      }
      if (root) return;
      context.reportError(new GraphQLError(`This API has no ${operation.operation} operations`, { nodes: operation }));
    },
  };
}

/** A variable's value, by name: how the estimate reads variables, so that it knows whether it read any. */
type VariableOf = (name: string) => unknown;

const intValue = (node: ValueNode, variable: VariableOf): number | undefined => {
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const value = variable(node.name.value);
    return typeof value === 'number' ? value : undefined;
  }
  return undefined;
};

const listLength = (node: ValueNode, variable: VariableOf): number => {
  if (node.kind === Kind.LIST) return node.values.length;
  if (node.kind === Kind.NULL) return 0;
  if (node.kind === Kind.VARIABLE) {
    const value = variable(node.name.value);
    return Array.isArray(value) ? value.length : value == null ? 0 : 1;
  }
  // A single value where a list is expected is coerced to a list of one.
  return 1;
};

/**
 * Estimated cost of an operation, in the spirit of Apollo's demand control: each field costs 1 and
 * what a list field selects is multiplied by its length — its `first`/`perPage`/`limit` argument, the
 * length of its list argument for a batched lookup, or else `costListSize`. Introspection is not
 * costed: graphql-js's own MaxIntrospectionDepthRule bounds how deeply its lists nest.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  costListSize: number,
): number {
  return estimateCost(schema, document, operation, variables, costListSize).cost;
}

/**
 * `operationCost`, and whether the estimate read any variable. One that read none holds for every
 * request of the operation, so a caller may keep it (the direct path does: a lookup by scalar arguments
 * is the same cost whatever its values).
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  costListSize: number,
): { cost: number; readVariables: boolean } {
  let readVariables = false;
  const variable: VariableOf = (name) => {
    readVariables = true;
    return variables[name];
  };
  const fragments = fragmentsOf(document);
  const memo = new Map<string, number>();
  const inProgress = new Set<string>();

  /** The page size a field's slicing argument asks for (or defaults to), if it has one. */
  const sliceOf = (field: FieldNode, definition: GraphQLField<unknown, unknown>): number | undefined => {
    for (const arg of definition.args) {
      if (!SLICING_ARGUMENTS.includes(arg.name)) continue;
      const node = field.arguments?.find((a) => a.name.value === arg.name)?.value;
      const n = node ? intValue(node, variable) : typeof arg.defaultValue === 'number' ? arg.defaultValue : undefined;
      if (n !== undefined) return Math.max(0, n);
    }
    return undefined;
  };

  /** The longest list argument given to a batched lookup. */
  const batchOf = (field: FieldNode, definition: GraphQLField<unknown, unknown>): number | undefined => {
    let batch: number | undefined;
    for (const arg of definition.args) {
      const node = field.arguments?.find((a) => a.name.value === arg.name)?.value;
      if (node && isListType(getNullableType(arg.type))) batch = Math.max(batch ?? 0, listLength(node, variable));
    }
    return batch;
  };

  /**
   * `sized`: the page size of the enclosing field, for its list children (`identitySearch(perPage)`
   * sizes `results`, as `sizedFields` does in Apollo's @listSize).
   */
  const selectionSet = (set: SelectionSetNode, parent: GraphQLNamedType | undefined | null, sized?: number): number => {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        const definition = fieldsOf(parent)?.[selection.name.value];
        if (!definition) continue;
        const slice = sliceOf(selection, definition);
        const list = isListType(getNullableType(definition.type));
        const inner = selection.selectionSet
          ? selectionSet(selection.selectionSet, getNamedType(definition.type), list ? undefined : slice)
          : 0;
        const times = list ? (slice ?? batchOf(selection, definition) ?? sized ?? costListSize) : 1;
        cost += 1 + times * inner;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        cost += selectionSet(selection.selectionSet, type, sized);
      } else {
        const definition = fragments.get(selection.name.value);
        const key = `${selection.name.value}/${sized}`;
        if (!definition || inProgress.has(key)) continue;
        let known = memo.get(key);
        if (known === undefined) {
          inProgress.add(key);
          known = selectionSet(definition.selectionSet, schema.getType(definition.typeCondition.name.value), sized);
          inProgress.delete(key);
          memo.set(key, known);
        }
        cost += known;
      }
    }
    return cost;
  };

  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  const cost = selectionSet(operation.selectionSet, root);
  return { cost, readVariables };
}

/**
 * Per-request checks on the chosen operation. One must have been chosen: otherwise the gateway would
 * fail it during execution with a 500. Its cost must be within the limit: the cost depends on variables
 * (a batch's list length), so it is checked on every request, not once per cached document, as the
 * answer for the operation, after any credit hold was taken (released, the answer not being a 200).
 */
/**
 * How deeply `{` nest in an operation's text, strings and comments skipped: one linear pass, run before
 * graphql-js parses. Its parser is recursive, so a few thousand nested selections can exhaust the stack
 * (a parse failure, or worse) before any depth rule sees a document.
 */
export function braceDepth(source: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      const eol = source.indexOf('\n', i);
      i = eol < 0 ? source.length : eol;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        i = skipString(source, i);
      }
    } else if (c === '{') {
      depth++;
      if (depth > max) max = depth;
    } else if (c === '}') {
      depth--;
    }
  }
  return max;
}

/** Index of the closing quote of the one-line string opening at `start` (escapes honoured). */
function skipString(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '"' || source[i] === '\n') return i;
  }
  return source.length;
}

/** Far past any real operation's nesting, and far below what the recursive parser survives. */
const PARSE_NESTING_CEILING = 256;

/**
 * A /graphql pre-handler refusing an operation nested past any real one before Apollo parses it (an
 * error thrown inside Apollo's pipeline before parsing would be an unexpected 500). The answer is the
 * same refusal the depth rule gives: 400, BAD_USER_INPUT naming GRAPHQL_MAX_DEPTH, free.
 */
/** The refusal of a document nested deeper than the parser is let go, on every transport. */
export function nestingRefusal(depth: number, limits: Pick<GraphqlLimits, 'maxDepth'>): GraphQLFormattedError {
  return {
    message: `The operation nests ${depth} levels deep; at most ${limits.maxDepth} are allowed (GRAPHQL_MAX_DEPTH)`,
    extensions: { code: ErrorCode.BAD_USER_INPUT, limit: 'GRAPHQL_MAX_DEPTH' },
  };
}

/** The refusal of an operation estimated to cost more than allowed, on every transport. */
export function costRefusal(
  operation: OperationDefinitionNode,
  cost: number,
  limits: Pick<GraphqlLimits, 'maxCost'>,
): GraphQLFormattedError {
  const name = operation.name ? `Operation ${operation.name.value}` : 'The operation';
  return {
    message: `${name} has an estimated cost of ${cost}; at most ${limits.maxCost} is allowed (GRAPHQL_MAX_COST)`,
    extensions: { code: ErrorCode.BAD_USER_INPUT, limit: 'GRAPHQL_MAX_COST' },
  };
}

export function nestingGuard(limits: Pick<GraphqlLimits, 'maxDepth'>) {
  const ceiling = Math.max(PARSE_NESTING_CEILING, limits.maxDepth);
  // Callback-style: it runs on every /graphql request, and an async hook costs each a promise and a hop.
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const body = request.body as { query?: unknown } | readonly { query?: unknown }[] | undefined;
    // A batch is as deep as its deepest operation.
    const sources = Array.isArray(body)
      ? body.map((item) => item?.query)
      : [(body as { query?: unknown } | undefined)?.query ?? (request.query as { query?: unknown })?.query];
    let depth = 0;
    for (const source of sources) if (typeof source === 'string') depth = Math.max(depth, braceDepth(source));
    if (depth <= ceiling) return done();
    reply.code(400).send({ errors: [nestingRefusal(depth, limits)] });
  };
}

export function operationLimitsPlugin(limits: GraphqlLimits): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        // The credit plugin holds nothing for an unresolved operation, so failing here is free.
        async didResolveOperation(rc) {
          if (rc.operation) return;
          const name = rc.request.operationName;
          const operations = rc.document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
          const message =
            name != null
              ? `Unknown operation named "${name}"`
              : operations > 1
                ? 'Must provide operationName when the document contains several operations'
                : 'Must provide an operation';
          throw new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
        },
        async responseForOperation(rc): Promise<GraphQLResponse | null> {
          if (!rc.operation) return null;
          const cost = operationCost(
            rc.schema,
            rc.document,
            rc.operation,
            rc.request.variables ?? {},
            limits.costListSize,
          );
          if (cost <= limits.maxCost) return null;
          const error = costRefusal(rc.operation, cost, limits);
          rc.contextValue.log.info({ cost, maxCost: limits.maxCost }, 'GraphQL operation refused: cost');
          return {
            http: { status: 400, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: { errors: [error] } },
          };
        },
      };
    },
  };
}

// graphql-js 16 spells it "more that".
const TOKEN_LIMIT = /Document contains more tha[nt] (\d+) tokens/;

/**
 * A limit refusal as callers see it: BAD_USER_INPUT naming the limit. Apollo reports graphql-js's token
 * cut-off as a parse failure and the validation rule's refusals as validation failures; both are the
 * caller asking for too much, not a malformed operation.
 */
export function formatLimitError(formatted: GraphQLFormattedError): GraphQLFormattedError | undefined {
  const tokens = TOKEN_LIMIT.exec(formatted.message);
  if (formatted.extensions?.code === 'GRAPHQL_PARSE_FAILED' && tokens) {
    return {
      message: `The operation has more than ${tokens[1]} tokens; at most ${tokens[1]} are allowed (GRAPHQL_MAX_TOKENS)`,
      extensions: { code: ErrorCode.BAD_USER_INPUT, limit: 'GRAPHQL_MAX_TOKENS' },
    };
  }
  if (typeof formatted.extensions?.limit === 'string') {
    return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.BAD_USER_INPUT } };
  }
  return undefined;
}
