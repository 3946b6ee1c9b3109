import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { RequestContext } from './context.js';

/** A caller's x-request-id is reused only when it is this tame, so it cannot forge or flood log lines. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function contextFor(request: FastifyRequest, services: Services, operationLabel?: string): RequestContext {
  return {
    requestId: String(request.id),
    services,
    partner: request.partner ?? null,
    log: request.log,
    operationLabel,
    forwardHeaders: forwardHeaders(request),
    memo: new Map(),
    delivery: request.delivery,
  };
}

/**
 * The key itself stays here: a remote subgraph learns the caller from the gateway's signed token
 * (src/gateway/subgraph-token.ts), so it never holds a secret that would let it act as the partner.
 */
function forwardHeaders(request: FastifyRequest): Record<string, string> {
  return { 'x-request-id': String(request.id) };
}
