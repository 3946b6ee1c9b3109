import type { FastifyReply, FastifyRequest } from 'fastify';

/** Which of the two interfaces a path belongs to: each has its own error body. */
export type Surface = 'partner' | 'public' | 'graphql' | 'other';

export const surfaceOf = (url: string): Surface =>
  url.startsWith('/partners')
    ? 'partner'
    : url.startsWith('/api/public')
      ? 'public'
      : url.startsWith('/graphql')
        ? 'graphql'
        : 'other';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const reasonPhrase = (status: number): string => REASONS[status] ?? (status >= 500 ? 'Error' : 'Bad Request');

/**
 * An error answer in the caller's interface shape: `{statusCode, message, error}` on the partner
 * interface (NestJS's body, which its clients parse), `{message}` on the public one.
 */
export function errorBody(surface: Surface, statusCode: number, message: string): Record<string, unknown> {
  if (surface === 'public') return { message };
  if (surface === 'graphql') return { errors: [{ message, extensions: { code: graphqlCodeOf(statusCode) } }] };
  return { statusCode, message, error: reasonPhrase(statusCode) };
}

const graphqlCodeOf = (status: number): string =>
  status === 401
    ? 'UNAUTHENTICATED'
    : status === 429
      ? 'RATE_LIMITED'
      : status < 500
        ? 'BAD_REQUEST'
        : 'INTERNAL_SERVER_ERROR';

export function sendError(request: FastifyRequest, reply: FastifyReply, statusCode: number, message: string) {
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send(errorBody(surfaceOf(request.url), statusCode, message));
}

/** An error a route throws on purpose, with the status and message the caller should see. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
