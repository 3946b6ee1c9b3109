import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.js';
import { ErrorCode, httpStatusOf, UNAVAILABLE_RETRY_AFTER_S } from '../errors.js';
import { formatLimitError } from './limits.js';

/**
 * The HTTP status a GraphQL answer stands for, or undefined to leave Apollo's (a success, partial ones
 * included). An answer without data is the request failing: its first error's code decides. Field errors leave the answer a
 * 200 unless every root field failed because a backing service is unavailable, which is an outage.
 */
export function httpStatusOfResult(result: {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}): number | undefined {
  const [first, ...rest] = result.errors ?? [];
  if (!first) return undefined;
  // A code the table does not know keeps Apollo's status (200 for PERSISTED_QUERY_NOT_FOUND, on purpose).
  if (result.data == null) return httpStatusOf[String(first.extensions?.code)];
  const errors = [first, ...rest];
  const failedKeys = new Set(errors.map((e) => e.path?.[0]));
  const everyFieldFailed = Object.keys(result.data).every((key) => failedKeys.has(key));
  const unavailable = errors.every((e) => e.extensions?.code === ErrorCode.UPSTREAM_UNAVAILABLE);
  return everyFieldFailed && unavailable ? httpStatusOf.UPSTREAM_UNAVAILABLE : undefined;
}

/**
 * Makes /graphql's HTTP status follow its errors, in one place: Apollo answers 500 for any error thrown
 * before execution without an HTTP status of its own (the credit plugin's UNAUTHENTICATED, for one), and
 * 200 for every executed operation. A status Apollo chose on purpose (400 for a parse failure, 405 for a
 * GET mutation) is kept.
 */
export function graphqlHttpStatusPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const status = httpStatusOfResult(response.body.singleResult);
          const current = response.http.status;
          if (status !== undefined && (current === undefined || current === 200 || current === 500)) {
            response.http.status = status;
          }
          if (response.http.status === 503) response.http.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
        },
      };
    },
  };
}

/** The error without graphql-js's "Did you mean …?" hints, which name schema fields and types. */
export const withoutSuggestions = (error: GraphQLFormattedError): GraphQLFormattedError => ({
  ...error,
  message: error.message.replace(/ ?Did you mean .+?\?$/, ''),
});

/**
 * An error Apollo Server raised itself for a bad request, without a code but with a 4xx status of its
 * own: a persisted query whose sha256Hash does not match its query ("provided sha does not match query",
 * 400), an unsupported persisted-query version. Apollo would code it INTERNAL_SERVER_ERROR; it is the
 * client's, so it keeps Apollo's status and message, with the code BAD_REQUEST, and is not logged as a bug.
 */
const isApolloRefusal = (error: unknown): boolean => {
  if (!(error instanceof GraphQLError) || error.extensions?.code !== undefined) return false;
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/** Field errors that are bugs or outages, with their details, for the log (callers see them redacted). */
export function logFailedFields(errors: readonly GraphQLError[], log: Pick<FastifyBaseLogger, 'error'>): void {
  for (const error of errors) {
    const code = error.extensions?.code;
    if (isApolloRefusal(error)) continue;
    if (code === undefined || code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR') {
      log.error({ err: error.originalError ?? error, path: error.path }, 'GraphQL field failed');
    }
  }
}

/** Apollo Server's `formatError`: hides internal details from callers; the log keeps them. */
export function graphqlErrorFormatter(explorer: boolean) {
  return (unformatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    // hideSchemaDetailsFromClientErrors covers validation errors only; variable coercion suggests too.
    const formatted = explorer ? unformatted : withoutSuggestions(unformatted);
    const limited = formatLimitError(formatted);
    if (limited) return limited;
    if (isApolloRefusal(error)) {
      const { message, locations, path } = formatted;
      return {
        message,
        ...(locations ? { locations } : {}),
        ...(path ? { path } : {}),
        extensions: { code: 'BAD_REQUEST' },
      };
    }
    const code = formatted.extensions?.code;
    // Unexpected failures keep their details in the log, not in the answer.
    if (code === 'INTERNAL_SERVER_ERROR' || code === 'DOWNSTREAM_SERVICE_ERROR' || code === undefined) {
      // A database that cannot answer now is a temporary outage (503, retry), not a bug.
      if (isDatabaseUnavailable(error)) {
        const { message: _m, extensions: _x, ...rest } = formatted;
        return { ...rest, message: DATABASE_UNAVAILABLE_MESSAGE, extensions: { code: 'UPSTREAM_UNAVAILABLE' } };
      }
      return { ...formatted, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
    const { serviceName: _s, exception: _e, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  };
}
