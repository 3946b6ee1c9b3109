import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  isNonNullType,
  type OperationDefinitionNode,
  TypeInfo,
  typeFromAST,
  ValidationContext,
  type VariableNode,
} from 'graphql';
import { ErrorCode } from '../errors.js';

/** A variable of a nullable type used where a value is required (an argument, input field or list item). */
export interface RequiredUse {
  name: string;
  /** The type its position requires, e.g. `Int!`. */
  type: string;
  node: VariableNode;
}

const uses = new WeakMap<OperationDefinitionNode, readonly RequiredUse[]>();

/**
 * Where the operation (with the fragments it spreads) puts a nullable variable in a non-null position.
 * Validation allows that when the variable or the position has a default (`query($p: Int = 1) { f(page:
 * $p) }`), yet an explicit `null` for it reaches the field as null: graphql-js then fails while executing
 * (a field error, or a whole request for a directive's `if`) without a code, which answered a 500. Worked
 * out once per parsed operation; most operations have none.
 */
export function requiredUses(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): readonly RequiredUse[] {
  const known = uses.get(operation);
  if (known) return known;
  const found: RequiredUse[] = [];
  const definitions = new Map((operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]));
  if (definitions.size) {
    const context = new ValidationContext(schema, document, new TypeInfo(schema), () => {});
    for (const use of context.getRecursiveVariableUsages(operation)) {
      const definition = definitions.get(use.node.name.value);
      const declared = definition && typeFromAST(schema, definition.type);
      if (use.type && isNonNullType(use.type) && declared && !isNonNullType(declared)) {
        found.push({ name: use.node.name.value, type: String(use.type), node: use.node });
      }
    }
  }
  uses.set(operation, found);
  return found;
}

/**
 * The refusals for variables given an explicit null where the operation requires a value: worded as
 * graphql-js words a null for a non-null variable, coded BAD_USER_INPUT (a free 400), one per variable.
 */
export function nullVariableErrors(
  required: readonly RequiredUse[],
  variables: Record<string, unknown> | null | undefined,
): GraphQLError[] {
  if (!required.length || !variables) return [];
  const errors: GraphQLError[] = [];
  const named = new Set<string>();
  for (const use of required) {
    if (variables[use.name] !== null || !Object.hasOwn(variables, use.name) || named.has(use.name)) continue;
    named.add(use.name);
    errors.push(
      new GraphQLError(
        `Variable "$${use.name}" got invalid value null; Expected non-nullable type "${use.type}" not to be null.`,
        { nodes: use.node, extensions: { code: ErrorCode.BAD_USER_INPUT } },
      ),
    );
  }
  return errors;
}

/** Whether any variable is an explicit null: only then is an operation worth looking at for `requiredUses`. */
export function hasNullVariable(variables: Record<string, unknown> | null | undefined): boolean {
  if (!variables) return false;
  for (const key in variables) if (variables[key] === null) return true;
  return false;
}
