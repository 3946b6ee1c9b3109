import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * Errors the router raises before any hook runs (Fastify's `frameworkErrors` option): without this they
 * answer Fastify's own body without `x-request-id`. Their messages would echo the path, which can hold a key.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(request, reply, 414, 'A path parameter is too long');
  if (error.code === 'FST_ERR_BAD_URL') return sendError(request, reply, 400, 'Malformed percent-encoding in the URL');
  request.log.error({ err: error }, 'request failed');
  return sendError(request, reply, 500, 'Internal server error');
}

/** Turns every failure into the interface's error body: validation → 400, unknown route → 404, bugs → 500. */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  // Unknown paths still pass the auth hook's rate limits (it runs on every request), so scanning is not free.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A known path asked with another method is a 405 naming the methods it has, not a 404. CORS's catch-all
    // `OPTIONS *` (cors.ts) matches every path, so it says nothing about whether this one exists.
    const allowed = METHODS.filter((method) => {
      const route = method !== request.method && app.findRoute({ method, url: path });
      return route && !(method === 'OPTIONS' && '*' in route.params);
    });
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      return sendError(request, reply, 405, `Cannot ${request.method} ${path}: use ${allowed.join(' or ')}`);
    }
    return sendError(request, reply, 404, `Cannot ${request.method} ${path}`);
  });
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers);
      if (error.httpStatus >= 500 && error.httpStatus !== 503) request.log.error({ err: error }, 'request failed');
      return sendError(
        request,
        reply,
        error.httpStatus,
        error.httpStatus >= 500 && error.httpStatus !== 503 ? 'Internal server error' : error.message,
      );
    }
    if (error.validation) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'request';
      const param = first?.instancePath
        ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
        : first?.params && 'missingProperty' in first.params
          ? String(first.params.missingProperty)
          : '';
      const message = param
        ? `Invalid ${where} parameter "${param}": ${first?.message ?? 'invalid'}`
        : `Invalid ${where}: ${first?.message ?? 'invalid'}`;
      return sendError(request, reply, 400, message);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendError(request, reply, 503, DATABASE_UNAVAILABLE_MESSAGE);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, status, status === 503 ? error.message : 'Internal server error');
    }
    // Fastify's own 4xx (malformed JSON, body too large, bad content type) keep their explanation.
    if (status === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? '60');
    return sendError(request, reply, status, error.message);
  });
});
