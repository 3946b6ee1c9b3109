import type { ApolloServer } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { type GraphQLFormattedError, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { rootFields } from '../credits/plugin.js';
import { AppError, ErrorCode, httpStatusOf, notFound } from '../errors.js';
import type { PriceTable } from '../gateway/prices.js';
import type { RequestContext } from '../graphql/context.js';
import { contextFor } from '../graphql/request-context.js';
import type { Services } from '../services.js';
import type { RestRoute } from './rest-route.js';

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

/** Mounts the REST route table; each route executes its GraphQL operation through the gateway. */
export async function restPlugin(
  app: FastifyInstance,
  opts: { routes: RestRoute<unknown>[]; apollo: ApolloServer<RequestContext>; services: Services; prices: PriceTable },
) {
  for (const route of opts.routes) {
    // Parsed once at start-up: a malformed operation fails the boot, not a request.
    const document = parse(route.operation);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    if (!operation) throw new Error(`REST route ${route.url} has no operation`);
    const paid = rootFields(operation, {}, {}, opts.prices).some((f) => f.price > 0);
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
    app.route({
      method: route.method,
      url: route.url,
      exposeHeadRoute: !paid,
      schema: route.schema,
      handler: async (request) => {
        const response = await opts.apollo.executeOperation(
          { query: route.operation, variables: route.variables(request) },
          { contextValue: contextFor(request, opts.services, route.label) },
        );
        if (response.body.kind !== 'single') throw new Error('incremental delivery is not used by REST routes');
        const { data, errors } = response.body.singleResult;
        if (errors?.length) throw errorOf(errors);
        // A nullable root field answering null (rather than NOT_FOUND) still means "nothing here" on REST.
        const missing = Object.entries(data ?? {}).find(([, value]) => value === null);
        if (!data || missing) throw notFound(`Not found: ${missing?.[0] ?? 'no data'}`);
        // What the answer costs (set by the credit plugin): only on an answer, an error is never charged.
        for (const [name, value] of response.http.headers) if (name.startsWith('x-credits-')) reply.header(name, value);
        return respond(data);
      },
    });
  }
}
