import type { FastifySchema } from 'fastify';

/**
 * One documented REST path, mapped onto one GraphQL operation of the supergraph. The operation runs
 * through the gateway exactly like a /graphql request (same resolvers, same credit plugin), so the
 * REST layer holds no business logic: parameters in, GraphQL variables, data out in the spec's shape.
 */
export interface RestRoute<TData = Record<string, unknown>> {
  method: 'GET' | 'POST';
  url: string;
  /** Names the operation in credit messages. */
  label: string;
  /** Fastify JSON schemas: validate input (a free 400) and serialise the answer. */
  schema: FastifySchema;
  /** GraphQL operation text. */
  operation: string;
  variables(input: { query: unknown; body: unknown; params: unknown }): Record<string, unknown>;
  /** The REST body for the operation's data. */
  respond(data: TData): unknown;
}

export const defineRoute = <TData>(route: RestRoute<TData>): RestRoute<TData> => route;

/** Partner error body, for response schemas. */
export const partnerErrorSchema = {
  type: 'object',
  properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' } },
} as const;
