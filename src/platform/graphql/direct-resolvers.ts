import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { GraphQLScalarType, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Resolve = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown;
type Metadata = ReturnType<typeof getMetadataStorage>;
type Handler = Metadata['queries'][number] | Metadata['fieldResolvers'][number];
type Param = NonNullable<Handler['params']>[number];

/**
 * Resolvers that call the class method directly, for the handlers where type-graphql's own wrapper
 * would change nothing but the cost.
 *
 * Per call, type-graphql's wrapper sorts the parameter list, maps every argument through its (async)
 * validation even with `validate: false`, joins them with `Promise.all`, and runs the (empty)
 * middleware chain: about 6 % of the CPU of a public lookup. For a handler whose parameters are
 * scalar or enum arguments, the context, the info or the root (made an instance of its class, as
 * type-graphql makes it), and that has no middleware,
 * no `@Authorized` roles and no validation of its own, that wrapper hands the method exactly the
 * values read here, so the method is called with them straight away. Any other handler (input-type
 * arguments, `@Args` classes, custom decorators) keeps type-graphql's wrapper.
 *
 * `resolvers` is the map `createResolversMap(schema)` made of `schema`; handlers are replaced in place.
 */
export function directResolvers(
  classes: readonly Function[],
  schema: GraphQLSchema,
  resolvers: GraphQLResolverMap<unknown>,
): void {
  const storage = getMetadataStorage();
  const owned = new Set(classes);
  const instances = new Map<Function, object>();
  const instanceOf = (target: Function): object => {
    let instance = instances.get(target);
    if (!instance) {
      instance = new (target as new () => object)();
      instances.set(target, instance);
    }
    return instance;
  };
  const replace = (typeName: string | undefined, handler: Handler) => {
    if (!typeName || !owned.has(handler.target)) return;
    const fields = resolvers[typeName] as Record<string, unknown> | undefined;
    if (typeof fields?.[handler.schemaName] !== 'function') return;
    const resolve = direct(handler, instanceOf(handler.target));
    if (!resolve) return;
    fields[handler.schemaName] = resolve;
  };
  for (const query of storage.queries) replace(schema.getQueryType()?.name, query);
  for (const mutation of storage.mutations) replace(schema.getMutationType()?.name, mutation);
  const resolved = new Set<string>();
  for (const field of storage.fieldResolvers) {
    const objectClass = field.getObjectType?.() ?? field.resolverClassMetadata?.getObjectType();
    const typeName = storage.objectTypes.find((o) => o.target === objectClass)?.name;
    resolved.add(`${typeName}.${field.schemaName}`);
    if (field.kind === 'external') replace(typeName, field);
  }
  // A plain @Field gets a resolver from type-graphql too (unless its type says `simpleResolvers`), one that
  // only reads the property. graphql-jit inlines a field without a resolver, but calls one that has it
  // with a resolve-info object and two closures: 3 000 calls in a 1000-address batch, a quarter of the
  // memory it allocates. Such fields are left to the default resolver, which reads the same property.
  for (const objectType of storage.objectTypes) {
    const fields = resolvers[objectType.name] as Record<string, unknown> | undefined;
    if (!fields || !schema.getType(objectType.name)) continue;
    for (const field of objectType.fields ?? []) {
      if (field.name !== field.schemaName || field.middlewares?.length || field.roles?.length) continue;
      if (resolved.has(`${objectType.name}.${field.schemaName}`)) continue;
      if (typeof fields[field.schemaName] !== 'function') continue;
      delete fields[field.schemaName];
    }
  }
}

function direct(handler: Handler, instance: object): Resolve | undefined {
  if (handler.middlewares?.length || handler.roles?.length) return undefined;
  const method = (instance as Record<string, unknown>)[handler.methodName];
  if (typeof method !== 'function') return undefined;
  const picks: Resolve[] = [];
  for (const param of [...(handler.params ?? [])].sort((a, b) => a.index - b.index)) {
    const pick = picker(param);
    if (!pick) return undefined;
    picks.push(pick);
  }
  const [first, second, third] = picks;
  // The usual shapes without an array per call; the method may throw or return a promise, as before.
  switch (picks.length) {
    case 0:
      return () => method.call(instance);
    case 1:
      return (root, args, ctx, info) => method.call(instance, first?.(root, args, ctx, info));
    case 2:
      return (root, args, ctx, info) =>
        method.call(instance, first?.(root, args, ctx, info), second?.(root, args, ctx, info));
    case 3:
      return (root, args, ctx, info) =>
        method.call(
          instance,
          first?.(root, args, ctx, info),
          second?.(root, args, ctx, info),
          third?.(root, args, ctx, info),
        );
    default:
      return (root, args, ctx, info) =>
        method.apply(
          instance,
          picks.map((pick) => pick(root, args, ctx, info)),
        );
  }
}

/** How to read one parameter, when type-graphql would pass it on as it is; undefined otherwise. */
function picker(param: Param): Resolve | undefined {
  switch (param.kind) {
    case 'arg': {
      if (param.validateSettings !== undefined || param.validateFn !== undefined) return undefined;
      if (!passedAsIs(param.getType())) return undefined;
      const { name } = param;
      // type-graphql copies a list argument into a new array; so does this, as a method may change it.
      return (_root, args) => {
        const value = args[name];
        return Array.isArray(value) ? [...value] : value;
      };
    }
    case 'context': {
      const { propertyName } = param;
      return propertyName === undefined
        ? (_root, _args, ctx) => ctx
        : (_root, _args, ctx) => (ctx as Record<string, unknown>)[propertyName];
    }
    case 'info':
      return (_root, _args, _ctx, info) => info;
    case 'root': {
      const { propertyName } = param;
      const read =
        propertyName === undefined
          ? (root: unknown) => root
          : (root: unknown) => (root as Record<string, unknown>)[propertyName];
      const type = param.getType?.();
      if (type === undefined) return read;
      if (typeof type !== 'function') return undefined;
      return (root) => asInstanceOf(type as new () => object, read(root));
    }
    default:
      return undefined;
  }
}

/**
 * Argument types whose values type-graphql's `convertToType` returns unchanged: the built-in scalars
 * (String, Number, Boolean as classes, Int/Float/ID and custom ones as GraphQLScalarType) and enums
 * (a plain object, whose values are strings or numbers). A class is an input type: converted.
 */
function passedAsIs(type: unknown): boolean {
  if (type === String || type === Number || type === Boolean) return true;
  if (type instanceof GraphQLScalarType) return true;
  return typeof type === 'object' && type !== null && !Array.isArray(type);
}

const SIMPLE: readonly unknown[] = [String, Boolean, Number, Date, Array, Promise];

/**
 * A typed `@Root()` as type-graphql's `convertToType` hands it over: as it is when it already is an
 * instance (or a plain value), otherwise copied into a new instance of the class, leaving out the
 * class's own undefined fields that the value lacks.
 */
function asInstanceOf(Target: new () => object, data: unknown): unknown {
  if (data === null || data === undefined || data instanceof Target) return data;
  if (SIMPLE.includes((data as object).constructor)) return data;
  if (Array.isArray(data)) return data.map((item) => asInstanceOf(Target, item));
  const instance = new Target() as Record<string, unknown>;
  for (const key of Object.keys(instance)) {
    if (instance[key] === undefined && !(key in (data as object))) delete instance[key];
  }
  return Object.assign(instance, data);
}
