/**
 * REST JSON schemas derived from the GraphQL schema, so that a shape is declared once (as a GraphQL
 * type) and the REST layer validates and serialises exactly what GraphQL answers.
 */
import {
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  TypeInfo,
  typeFromAST,
  valueFromAST,
  visit,
  visitWithTypeInfo,
} from 'graphql';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  [keyword: string]: unknown;
}

/** Where a GraphQL scalar's values stand in JSON; custom scalars serialise as strings or safe integers. */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  Float: { type: 'number' },
  Int: { type: 'integer' },
  SafeInt: { type: 'integer' },
  DateTime: { type: 'string' },
  URL: { type: 'string' },
  BigInt: { type: 'string' },
};

/** GraphQL's Int is 32-bit: a larger parameter would fail as a GraphQL error, so refuse it up front. */
const INT_BOUNDS = { minimum: -2_147_483_648, maximum: 2_147_483_647 };

function leaf(type: GraphQLNamedType): JsonSchema {
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value) };
  const scalar = isScalarType(type) ? SCALARS[type.name] : undefined;
  // Fails the boot, not a request: a new scalar needs its JSON form said here.
  if (!scalar) throw new Error(`No JSON schema for GraphQL type ${type.name}`);
  return { ...scalar };
}

/** The schema that also allows null. */
export function orNull(schema: JsonSchema): JsonSchema {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type as string];
  if (types.includes('null')) return schema;
  return { ...schema, type: [...types, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
}

/** The schema without its null: for a value known to be there. */
export function nonNull(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.type)) return schema;
  const type = schema.type.filter((t) => t !== 'null');
  return {
    ...schema,
    type: type.length === 1 ? (type[0] as string) : type,
    ...(schema.enum ? { enum: schema.enum.filter((v) => v !== null) } : {}),
  };
}

function outputSchema(type: GraphQLOutputType, selections: SelectionSetNode | undefined): JsonSchema {
  if (isNonNullType(type)) return valueSchema(type.ofType, selections);
  return orNull(valueSchema(type, selections));
}

function valueSchema(type: GraphQLOutputType, selections: SelectionSetNode | undefined): JsonSchema {
  if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, selections) };
  const named = getNamedType(type);
  if (!isObjectType(named)) return leaf(named);
  if (!selections) throw new Error(`Selection of ${named.name} has no fields`);
  return selectionSchema(named.name, named.getFields(), selections);
}

function selectionSchema(
  typeName: string,
  fields: Record<string, { type: GraphQLOutputType }>,
  selections: SelectionSetNode,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const selection of selections.selections) {
    if (selection.kind !== Kind.FIELD) throw new Error(`REST operations select fields only (in ${typeName})`);
    const key = selection.alias?.value ?? selection.name.value;
    if (selection.name.value === '__typename') {
      properties[key] = { type: 'string' };
      required.push(key);
      continue;
    }
    const field = fields[selection.name.value];
    if (!field) throw new Error(`${typeName} has no field ${selection.name.value}`);
    properties[key] = outputSchema(field.type, selection.selectionSet);
    if (isNonNullType(field.type)) required.push(key);
  }
  return { type: 'object', required, properties };
}

/** The JSON schema of an operation's `data`: one property a root field, in the shape the selection makes. */
export function dataSchema(schema: GraphQLSchema, operation: OperationDefinitionNode): JsonSchema {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`The schema has no ${operation.operation} type`);
  return selectionSchema(root.name, root.getFields(), operation.selectionSet);
}

/** The schema at a dotted path of property names (`nameMetadata.metadata`) inside an object schema. */
export function schemaAt(schema: JsonSchema, path: string): JsonSchema {
  let at = schema;
  for (const key of path.split('.')) {
    const next = at.properties?.[key];
    if (!next) throw new Error(`The operation's data has no ${path}`);
    at = next;
  }
  return at;
}

/** Bounds that GraphQL types cannot say (lengths, ranges, patterns), per parameter; `items` for lists. */
export type Constraints = Record<string, JsonSchema>;

function constrain(schema: JsonSchema, constraint: JsonSchema | undefined): JsonSchema {
  if (!constraint) return schema;
  const { items, ...rest } = constraint;
  return {
    ...schema,
    ...rest,
    ...(items && schema.items ? { items: constrain(schema.items, items as JsonSchema) } : {}),
  };
}

/**
 * JSON schema of one parameter of GraphQL input type. `nullable` says whether the transport can carry a
 * null at all (a JSON body can, a query string cannot).
 */
function inputTypeSchema(type: GraphQLInputType, nullable: boolean): JsonSchema {
  if (isNonNullType(type)) return inputValueSchema(type.ofType, nullable);
  const schema = inputValueSchema(type, nullable);
  return nullable ? orNull(schema) : schema;
}

function inputValueSchema(type: GraphQLInputType, nullable: boolean): JsonSchema {
  if (isListType(type)) return { type: 'array', items: inputTypeSchema(type.ofType, nullable) };
  if (isInputObjectType(type)) return objectOfParameters(Object.values(type.getFields()), nullable, {});
  const schema = leaf(type);
  return type.name === 'Int' ? { ...schema, ...INT_BOUNDS } : schema;
}

interface Parameter {
  name: string;
  type: GraphQLInputType;
  defaultValue: unknown;
}

function objectOfParameters(parameters: Parameter[], nullable: boolean, constraints: Constraints): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const { name, type, defaultValue } of parameters) {
    properties[name] = constrain(inputTypeSchema(type, nullable), constraints[name]);
    if (defaultValue !== undefined) properties[name].default = defaultValue;
    else if (isNonNullType(type)) required.push(name);
  }
  for (const name of Object.keys(constraints)) {
    if (!properties[name]) throw new Error(`A constraint names ${name}, which is not a parameter`);
  }
  return { type: 'object', required, properties };
}

export interface InputOptions {
  /** The parameters are the fields of this input-object variable rather than the variables themselves. */
  variable?: string | undefined;
  /** Whether the parameters arrive in a JSON body, which can carry null. */
  body: boolean;
  constraints?: Constraints | undefined;
}

/**
 * The JSON schema of a route's parameters: the operation's variables (or one input-object variable's
 * fields), with their types, whether required, and defaults — a variable's own default, else that of
 * the argument it is passed to.
 */
export function inputSchema(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  { variable, body, constraints = {} }: InputOptions,
): JsonSchema {
  const argumentDefaults = new Map<string, unknown>();
  const typeInfo = new TypeInfo(schema);
  visit(
    operation,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        if (node.value.kind === Kind.VARIABLE && argument?.defaultValue !== undefined) {
          argumentDefaults.set(node.value.name.value, argument.defaultValue);
        }
      },
    }),
  );
  const parameters = (operation.variableDefinitions ?? []).map((definition) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`Variable $${name} has an unknown type`);
    const own = definition.defaultValue ? valueFromAST(definition.defaultValue, type) : undefined;
    return { name, type, defaultValue: own ?? argumentDefaults.get(name) };
  });
  if (variable === undefined) return objectOfParameters(parameters, body, constraints);
  const input = parameters.find((p) => p.name === variable);
  const type = input && getNamedType(input.type);
  if (!isInputObjectType(type)) throw new Error(`Variable $${variable} is not of an input object type`);
  return objectOfParameters(Object.values(type.getFields()), body, constraints);
}
