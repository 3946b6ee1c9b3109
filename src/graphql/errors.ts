import { GraphQLError } from 'graphql';

/**
 * Stable `extensions.code` values. Clients branch on these; the REST layer maps them to HTTP statuses.
 */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  INSUFFICIENT_CREDITS: 'INSUFFICIENT_CREDITS',
  NOT_FOUND: 'NOT_FOUND',
  RATE_LIMITED: 'RATE_LIMITED',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status each code stands for on the REST paths. */
export const httpStatusOf: Record<string, number> = {
  BAD_USER_INPUT: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  GRAPHQL_PARSE_FAILED: 400,
  INSUFFICIENT_CREDITS: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 503,
};

const make =
  (code: ErrorCode) =>
  (message: string, extensions: Record<string, unknown> = {}): GraphQLError =>
    new GraphQLError(message, { extensions: { ...extensions, code } });

export const badInput = make(ErrorCode.BAD_USER_INPUT);
export const unauthenticated = make(ErrorCode.UNAUTHENTICATED);
export const insufficientCredits = make(ErrorCode.INSUFFICIENT_CREDITS);
export const notFound = make(ErrorCode.NOT_FOUND);
export const upstreamUnavailable = make(ErrorCode.UPSTREAM_UNAVAILABLE);
