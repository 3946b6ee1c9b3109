import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, sendError } from './errors.js';

/** Turns every failure into the interface's error body: validation → 400, unknown route → 404, bugs → 500. */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  // Unknown paths count against the rate limit too, so scanning them is not free.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) =>
    sendError(request, reply, 404, `Cannot ${request.method} ${request.url.split('?')[0]}`),
  );
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return sendError(request, reply, error.statusCode, error.message);
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
