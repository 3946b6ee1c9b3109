import type { Constraints, JsonSchema } from './graphql-json-schema.js';

/**
 * One documented REST path, mapped onto one GraphQL operation of the supergraph. The operation runs
 * through the operation pipeline exactly like a /graphql request (same resolvers, same charging), so the
 * REST layer holds no business logic: parameters in, GraphQL variables, data out in the spec's shape.
 */
export interface RestRoute<TData = Record<string, unknown>, TVariables = Record<string, unknown>> {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** Names the operation in credit messages. */
  label: string;
  /** GraphQL operation text (static, so codegen can read it). */
  operation: string;
  /**
   * Where the parameters arrive. Their JSON schema (a free 400) is derived from the operation's variables,
   * or from the fields of the input-object `variable`; `constraints` only adds bounds types cannot say.
   */
  input?: { from: 'query' | 'body' | 'params'; variable?: string; constraints?: Constraints };
  /** Query-string parameters a route reads in its own `variables`, when `input` comes from elsewhere. */
  query?: Record<string, JsonSchema>;
  /**
   * Where the REST body sits in the operation's data: a path (`stats`, `nameMetadata.metadata`), an object
   * of named paths (`{chains: 'bridgeChains'}`), or — for a body GraphQL does not shape — a function of
   * the data's derived JSON schema. The response schema (the serialiser) follows from it.
   */
  body: string | Record<string, string> | ((at: (path: string) => JsonSchema) => JsonSchema);
  /** Error bodies, in the interface's shape rather than GraphQL's. */
  errors?: Record<string, JsonSchema>;
  /** GraphQL variables from the request; by default the declared parameters (see `input`) as they arrive. */
  variables?(input: { query: unknown; body: unknown; params: unknown }): TVariables;
  /**
   * The REST body for the operation's data, when it is not the data at `body`'s path(s); a root field
   * answering null has already become a 404.
   */
  respond?(data: AnsweredData<TData>): unknown;
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
  required: ['statusCode', 'message', 'error'],
  properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' } },
};

export const partnerErrors = { '4xx': partnerErrorSchema, '5xx': partnerErrorSchema };
