import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  buildSchema,
  type GraphQLFormattedError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
} from 'graphql';
import { creditHeaders, priceOf } from '../credits/charging.js';
import type { PriceTable } from '../credits/prices.js';
import { rootFields } from '../credits/root-fields.js';
import { AppError, ErrorCode, httpStatusOf, notFound } from '../errors.js';
import type { GraphqlServer } from '../gateway/server.js';
import { fragmentsOf } from '../graphql/fragments.js';
import { contextFor } from '../graphql/request-context.js';
import { nullVariableErrors, requiredUses } from '../graphql/variables.js';
import type { Services } from '../services.js';
import { compressionOptions } from './caching.js';
import { dataSchema, inputSchema, type JsonSchema, nonNull, schemaAt } from './graphql-json-schema.js';
import { collectionOf, collectionText } from './rest-collection.js';
import type { RestRoute } from './rest-route.js';
import { refuseUnknownParameters } from './unknown-parameters.js';

/** The error a REST answer stands for: the GraphQL answer's first error, by its code. */
export function errorOf(errors: readonly GraphQLFormattedError[]): AppError {
  const first = errors[0] as GraphQLFormattedError;
  const code = String(first.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
  const status = httpStatusOf[code] ?? 500;
  // graphql-js and Apollo have codes of their own for requests that cannot run: all bad input here.
  const known = (Object.values(ErrorCode) as string[]).includes(code);
  return new AppError(
    known ? (code as ErrorCode) : status === 400 ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR',
    first.message,
  );
}

type Request = { query: unknown; body: unknown; params: unknown };

/** Reads a dotted path of an answer; the path is split once, when the route is derived. */
const reader = (path: string): ((data: unknown) => unknown) => {
  const keys = path.split('.');
  return (data) => {
    let value = data;
    for (const key of keys) value = (value as Record<string, unknown>)[key];
    return value;
  };
};

/**
 * A route's Fastify schema and its mapping to and from GraphQL, derived from its operation against the
 * API schema: the REST shapes are the GraphQL types, not a second declaration of them.
 */
export function deriveRoute(api: GraphQLSchema, route: RestRoute<unknown>) {
  // Parsed once at start-up: a malformed operation fails the boot, not a request.
  const operation = parse(route.operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`REST route ${route.url} has no operation`);
  const data = dataSchema(api, operation);
  // A root field answering null is a 404 before the body is built.
  const at = (path: string) => (path.includes('.') ? schemaAt(data, path) : nonNull(schemaAt(data, path)));
  const { body } = route;
  let response: JsonSchema;
  let respond = route.respond?.bind(route) as ((data: unknown) => unknown) | undefined;
  if (typeof body === 'function') {
    response = body(at);
  } else if (typeof body === 'string') {
    response = at(body);
    respond ??= reader(body);
  } else {
    const paths = Object.entries(body);
    response = {
      type: 'object',
      required: paths.map(([key]) => key),
      properties: Object.fromEntries(paths.map(([key, path]) => [key, at(path)])),
    };
    const readers = paths.map(([key, path]) => [key, reader(path)] as const);
    respond ??= (d) => {
      const shaped: Record<string, unknown> = {};
      for (const [key, read] of readers) shaped[key] = read(d);
      return shaped;
    };
  }
  if (!respond) throw new Error(`REST route ${route.url} shapes its body itself, so it needs respond()`);
  const schema: FastifySchema = { response: { 200: response, ...route.errors } };
  let variables = route.variables?.bind(route) as ((request: Request) => unknown) | undefined;
  if (route.query) schema.querystring = { type: 'object', properties: route.query };
  if (route.input) {
    const { from, variable, constraints } = route.input;
    const parameters = inputSchema(api, operation, { variable, body: from === 'body', constraints });
    const at = from === 'query' ? 'querystring' : from;
    const before = (schema[at] ?? {}) as JsonSchema;
    schema[at] = { ...parameters, properties: { ...before.properties, ...parameters.properties } };
    // Only the declared parameters: an unknown one is ignored, as it always was, not a GraphQL error.
    const names = Object.keys(parameters.properties ?? {});
    variables ??= (request) => {
      const given = (request[from] ?? {}) as Record<string, unknown>;
      const picked: Record<string, unknown> = {};
      for (const name of names) if (given[name] !== undefined) picked[name] = given[name];
      return variable ? { [variable]: picked } : picked;
    };
  }
  const namesOf = (at: 'querystring' | 'body') => Object.keys((schema[at] as JsonSchema | undefined)?.properties ?? {});
  return {
    operation,
    schema,
    response,
    respond,
    variables: variables ?? (() => ({})),
    collection: collectionOf(response),
    /** The parameters the route takes, where it takes them: anything else on a partner path is refused. */
    known: { query: namesOf('querystring'), body: route.input?.from === 'body' ? namesOf('body') : undefined },
  };
}

/**
 * Mounts the REST route table. Each route is a persisted operation, prepared once at start-up by the
 * operation pipeline (gateway/pipeline.ts). A call runs its route's JSON-schema validation, then the
 * pipeline: the same resolvers, prices, charging and errors as `/graphql`. A route whose plan needs Apollo
 * Gateway (a remote subgraph) goes through Apollo Server's pipeline.
 */
export async function restPlugin(
  app: FastifyInstance,
  opts: {
    routes: RestRoute<unknown>[];
    graphql: GraphqlServer;
    services: Services;
    prices: PriceTable;
    /** The composed API schema, which the REST shapes are derived from. */
    apiSdl: string;
  },
) {
  const api = buildSchema(opts.apiSdl);
  const { apollo, pipeline } = opts.graphql;
  for (const route of opts.routes) {
    const { schema, response, respond, variables, collection, known } = deriveRoute(api, route);
    // Parsed once; the same object is the pipeline's cache key.
    const document = parse(route.operation);
    const prepared = pipeline.prepare(document);
    if (!prepared) throw new Error(`REST route ${route.url} has no operation`);
    const paid = priceOf(rootFields(prepared.operation, fragmentsOf(document), {}, opts.prices)) > 0;
    // Variables a JSON body could set to null where the operation needs a value (none today: those routes
    // read the query string); refused as on /graphql, before anything runs.
    const required = requiredUses(api, document, prepared.operation);
    if (paid && route.method === 'GET') {
      // HEAD would run the paid operation and send no answer: refuse it rather than charge for nothing.
      app.route({
        method: 'HEAD',
        url: route.url,
        handler: async () => {
          throw new AppError(
            'METHOD_NOT_ALLOWED',
            `HEAD is not supported on ${route.url} (a paid call): use GET`,
            {},
            { allow: 'GET' },
          );
        },
      });
    }
    /** The gateway's way: Apollo Server's whole pipeline, with the credit plugin. */
    const viaGateway = async (request: FastifyRequest, reply: FastifyReply, input: Record<string, unknown>) => {
      const response = await apollo.executeOperation(
        { query: route.operation, variables: input },
        { contextValue: contextFor(request, opts.services, route.label) },
      );
      if (response.body.kind !== 'single') throw new Error('incremental delivery is not used by REST routes');
      const { data, errors } = response.body.singleResult;
      if (errors?.length) throw errorOf(errors);
      // What the answer costs (set by the credit plugin): only on an answer, an error is never charged.
      for (const [name, value] of response.http.headers) if (name.startsWith('x-credits-')) reply.header(name, value);
      return answer(data);
    };
    // A nullable root field answering null (rather than NOT_FOUND) still means "nothing here" on REST.
    const answer = (data: Record<string, unknown> | null | undefined) => {
      if (!data) throw notFound('Not found: no data');
      for (const field in data) if (data[field] === null) throw notFound(`Not found: ${field}`);
      return respond(data);
    };
    app.route({
      method: route.method,
      url: route.url,
      exposeHeadRoute: !paid,
      schema,
      // Partner paths refuse a parameter they do not take; public paths accept what published clients send.
      ...(route.url.startsWith('/partners/')
        ? {
            preValidation: async (request: FastifyRequest) => {
              refuseUnknownParameters(request.query, known.query, 'query');
              if (known.body) refuseUnknownParameters(request.body, known.body, 'body');
            },
          }
        : {}),
      ...compressionOptions(route.method, response),
      handler: async (request, reply) => {
        const input = variables(request) as Record<string, unknown>;
        if (required.length) {
          const refused = nullVariableErrors(required, input);
          if (refused.length) throw errorOf(refused.map((error) => error.toJSON()));
        }
        // A plan of several fetches (remote subgraphs): Apollo Server's pipeline runs it.
        if (!prepared.execute) return viaGateway(request, reply, input);
        const ctx = contextFor(request, opts.services, route.label);
        const { data, errors, credits } = await pipeline.run(prepared, input, ctx);
        if (errors) throw errorOf(errors);
        const body = answer(data);
        reply.headers(creditHeaders(credits));
        // A larger list, or any map, is serialised piece by piece by the route's own compiled serialisers.
        const text =
          collection &&
          collectionText(body as Record<string, unknown>, collection, (schema) =>
            reply.compileSerializationSchema(schema, '200'),
          );
        if (text !== undefined) reply.type('application/json; charset=utf-8');
        return text ?? body;
      },
    });
  }
}
