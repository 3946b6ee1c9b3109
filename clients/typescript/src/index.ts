import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { TypedDocumentString } from './graphql.js';
import type { components, operations, paths } from './openapi.js';

export * from './graphql.js';
export type { components, operations, paths };

export interface CipgateClientOptions {
  /** The server's base URL, e.g. `https://api.example.com` (no trailing `/graphql`). */
  baseUrl: string;
  /** A partner key, sent as `x-api-key`. Without it only the public interface and free GraphQL fields answer. */
  apiKey?: string;
  /** A `fetch` other than the global one (a test double, a proxy agent). */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request (an `Idempotency-Key` belongs on one request, not here). */
  headers?: Record<string, string>;
}

/** What every answer of a counted request says about credits and the rate limit, read from its headers. */
export interface AnswerMeta {
  requestId: string | null;
  /** Credits the answer cost; null on free answers. */
  creditsCharged: number | null;
  /** The balance once the charge settles; null on free answers. */
  creditsRemaining: number | null;
  /** `RateLimit` header: requests left in the window and seconds to its reset. */
  rateLimit: { remaining: number; resetSeconds: number } | null;
  /** `Retry-After` in seconds, on 429 and 503. */
  retryAfterSeconds: number | null;
}

const intHeader = (headers: Headers, name: string): number | null => {
  const value = headers.get(name);
  return value === null || !/^\d+$/.test(value) ? null : Number(value);
};

/** Reads an answer's credit, rate-limit and retry headers. */
export function answerMeta(response: Response): AnswerMeta {
  const { headers } = response;
  const limit = /;\s*r=(\d+)\s*;\s*t=(\d+)/.exec(headers.get('ratelimit') ?? '');
  return {
    requestId: headers.get('x-request-id'),
    creditsCharged: intHeader(headers, 'x-credits-charged'),
    creditsRemaining: intHeader(headers, 'x-credits-remaining'),
    rateLimit: limit ? { remaining: Number(limit[1]), resetSeconds: Number(limit[2]) } : null,
    retryAfterSeconds: intHeader(headers, 'retry-after'),
  };
}

/** A GraphQL error as the server words it (`extensions.code`: BAD_USER_INPUT, INSUFFICIENT_CREDITS, …). */
export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface GraphqlAnswer<TResult> {
  data?: TResult | null;
  errors?: GraphqlError[];
  extensions?: { credits?: { charged: number; remaining?: number }; [key: string]: unknown };
  /** The HTTP answer, for its status and headers (see `answerMeta`). */
  response: Response;
}

export interface CipgateClient {
  /** The REST interface, typed from the server's OpenAPI document (`/openapi.json`). */
  rest: Client<paths>;
  /**
   * Runs a typed GraphQL document (see `src/documents.graphql`, or your own generated with the client
   * preset's `documentMode: 'string'`) on `/graphql`.
   */
  graphql<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    ...variables: TVariables extends Record<string, never> ? [] : [TVariables]
  ): Promise<GraphqlAnswer<TResult>>;
}

/**
 * A client for one cipgate server.
 *
 * @example
 * const cipgate = createCipgateClient({ baseUrl: 'http://localhost:4000', apiKey: process.env.CIPGATE_KEY });
 * const { data, error, response } = await cipgate.rest.GET('/partners/cip/identity/search', {
 *   params: { query: { query: 'alice' } },
 * });
 * const { data: owner } = await cipgate.graphql(NameOwnerDocument, { caip2Id: 'move-mvmt:mainnet', name: 'alice' });
 */
export function createCipgateClient(options: CipgateClientOptions): CipgateClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const rest = createFetchClient<paths>({ baseUrl, fetch: fetchFn, headers });
  return {
    rest,
    async graphql(document, ...variables) {
      const response = await fetchFn(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: document.toString(), variables: variables[0] ?? {} }),
      });
      const body = (await response.json()) as Omit<GraphqlAnswer<never>, 'response'>;
      return { ...body, response } as GraphqlAnswer<never>;
    },
  };
}

/** A middleware that adds an `Idempotency-Key` to every POST, for callers that retry on network errors. */
export const idempotencyKeys = (makeKey: () => string = () => crypto.randomUUID()): Middleware => ({
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', makeKey());
    }
    return request;
  },
});
