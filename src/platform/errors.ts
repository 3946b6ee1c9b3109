/**
 * The one error vocabulary. Domain code throws `AppError` (a code, a message, optional details); each
 * interface maps it once: GraphQL reads `extensions` (graphql-js copies an original error's `extensions`
 * into the GraphQL error it wraps it in), REST and the HTTP layer read the status from `httpStatusOf`,
 * and the body shape is chosen by the interface (src/platform/http/errors.ts).
 */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  INSUFFICIENT_CREDITS: 'INSUFFICIENT_CREDITS',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status each code stands for, on the REST paths and on /graphql. */
export const httpStatusOf: Record<string, number> = {
  BAD_USER_INPUT: 400,
  // graphql-js and Apollo's own codes for a request that cannot run.
  GRAPHQL_VALIDATION_FAILED: 400,
  GRAPHQL_PARSE_FAILED: 400,
  OPERATION_RESOLUTION_FAILURE: 400,
  BAD_REQUEST: 400,
  INSUFFICIENT_CREDITS: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  UPSTREAM_UNAVAILABLE: 503,
};

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Machine-readable facts for the caller (e.g. `required`, `available`); become GraphQL extensions. */
    readonly details: Record<string, unknown> = {},
    /** HTTP headers the answer carries (e.g. `retry-after`, `allow`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The GraphQL mapping: graphql-js and Apollo Server copy this into the error's `extensions`. */
  get extensions(): Record<string, unknown> {
    return { ...this.details, code: this.code };
  }

  get httpStatus(): number {
    return httpStatusOf[this.code] ?? 500;
  }
}

const make =
  (code: ErrorCode) =>
  (message: string, details: Record<string, unknown> = {}): AppError =>
    new AppError(code, message, details);

export const badInput = make(ErrorCode.BAD_USER_INPUT);
export const unauthenticated = make(ErrorCode.UNAUTHENTICATED);
export const insufficientCredits = make(ErrorCode.INSUFFICIENT_CREDITS);
export const notFound = make(ErrorCode.NOT_FOUND);
export const upstreamUnavailable = make(ErrorCode.UPSTREAM_UNAVAILABLE);

/** Characters of a bad value that an error message quotes; a longer value is quoted by its start. */
export const QUOTED_MAX = 100;

/** A bad value as an error message quotes it back: `"0xzz"`, or a long one's start and `…`. */
export const quoted = (value: string): string =>
  `"${value.length > QUOTED_MAX ? `${value.slice(0, QUOTED_MAX)}…` : value}"`;

/**
 * `Retry-After` of a 503 (a backing service or the database unavailable): an outage worth retrying soon,
 * not a refusal. Seconds.
 */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
