import type { FastifyReply, FastifyRequest } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_S } from '../errors.js';

/** Which of the two interfaces a path belongs to: each has its own error body. */
export type Surface = 'partner' | 'public' | 'graphql' | 'other';

/**
 * Decided on the decoded path, as the router routes it: `/%70artners/stats` reaches the partner routes,
 * so it must get the partner shape (and the partner's key check) too.
 */
export const surfaceOf = (url: string): Surface => {
  const path = decodedPath(url);
  return path.startsWith('/partners')
    ? 'partner'
    : path.startsWith('/api/public')
      ? 'public'
      : path.startsWith('/graphql')
        ? 'graphql'
        : 'other';
};

/** Surfaces of the route patterns (a fixed set), worked out once each rather than per request. */
const routeSurfaces = new Map<string, Surface>();

/** The surface a route pattern names (`*`, the catch-all of CORS preflights, names none: 'other'). */
export function surfaceOfRoute(route: string): Surface {
  let surface = routeSurfaces.get(route);
  if (surface === undefined) {
    surface = surfaceOf(route);
    routeSurfaces.set(route, surface);
  }
  return surface;
}

/**
 * The surface a request's URL names, read from its matched route where that names the same one (the
 * router matched the decoded path): any route but a catch-all.
 */
export function surfaceOfRequest(request: Pick<FastifyRequest, 'url' | 'routeOptions'>): Surface {
  const route = request.routeOptions.url;
  return route === undefined || route.includes('*') ? surfaceOf(request.url) : surfaceOfRoute(route);
}

/**
 * The path part of a request URL, percent-decoded run by run so that one malformed escape (`%zz`) later
 * in the path does not hide which interface the earlier segments name.
 */
export function decodedPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  414: 'URI Too Long',
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
        : status === 503
          ? 'UPSTREAM_UNAVAILABLE'
          : 'INTERNAL_SERVER_ERROR';

export function sendError(request: FastifyRequest, reply: FastifyReply, statusCode: number, message: string) {
  if (statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', UNAVAILABLE_RETRY_AFTER_S);
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send(errorBody(surfaceOfRequest(request), statusCode, message));
}
