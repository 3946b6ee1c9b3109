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
    memo: new Map(),
  };
}
