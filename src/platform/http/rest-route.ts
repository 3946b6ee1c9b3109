import type { FastifySchema } from 'fastify';

/**
 * One documented REST path, mapped onto one GraphQL operation of the supergraph. The operation runs
 * through the gateway exactly like a /graphql request (same resolvers, same credit plugin), so the
 * REST layer holds no business logic: parameters in, GraphQL variables, data out in the spec's shape.
 */
export interface RestRoute<TData = Record<string, unknown>, TVariables = Record<string, unknown>> {
  method: 'GET' | 'POST';
  url: string;
  /** Names the operation in credit messages. */
  label: string;
  /** Fastify JSON schemas: validate input (a free 400) and serialise the answer. */
  schema: FastifySchema;
  /** GraphQL operation text (static, so codegen can read it). */
  operation: string;
  variables(input: { query: unknown; body: unknown; params: unknown }): TVariables;
  /** The REST body for the operation's data; a root field answering null has already become a 404. */
  respond(data: AnsweredData<TData>): unknown;
}

/**
 * Declares a route. `TData`/`TVariables` come from codegen (src/graphql/generated/operations.ts), so a
 * route whose operation drifts from the schema fails to type-check.
 */
/** Operation data after the REST layer's checks: no errors, and no root field null. */
export type AnsweredData<TData> = { [K in keyof TData]: NonNullable<TData[K]> };

export const defineRoute = <TData, TVariables>(route: RestRoute<TData, TVariables>): RestRoute<TData, TVariables> =>
  route;

/** Partner error body, for response schemas. */
export const partnerErrorSchema = {
  type: 'object',
  properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' } },
} as const;
