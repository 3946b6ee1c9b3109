import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { RequestContext } from './context.js';

export function contextFor(request: FastifyRequest, services: Services, operationLabel?: string): RequestContext {
  return {
    requestId: String(request.id),
    services,
    partner: request.partner ?? null,
    log: request.log,
    operationLabel,
    forwardHeaders: forwardHeaders(request),
    memo: new Map(),
  };
}

function forwardHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': String(request.id) };
  const key = request.headers['x-api-key'];
  if (typeof key === 'string') headers['x-api-key'] = key;
  return headers;
}
