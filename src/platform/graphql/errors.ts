import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode, httpStatusOf } from '../errors.js';

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
