import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Delivery } from '../credits/delivery.js';
import { unauthenticated } from '../errors.js';
import type { Services } from '../services.js';

export interface AuthenticatedPartner {
  id: string;
  name: string;
  email: string;
  keyId: string;
  /** A sandbox partner is served demo bridge data only, a live one never is. */
  sandbox: boolean;
}

/**
 * One request's context. In the default single-process mode the gateway hands this very object to
 * every subgraph, so resolvers share the request's partner, loaders and services.
 */
export interface RequestContext {
  requestId: string;
  services: Services;
  /** The partner whose `x-api-key` authenticated the request, if any. */
  partner: AuthenticatedPartner | null;
  log: Logger;
  /** Human label of the operation for credit messages (the REST route, or the GraphQL root fields). */
  operationLabel?: string;
  /** Headers a remote subgraph needs to see the same caller (x-api-key, x-request-id). */
  forwardHeaders: Record<string, string>;
  /** Per-request memo, e.g. DataLoaders, so a batch never leaks across requests. */
  memo: Map<string, unknown>;
  /** Over HTTP: tells the credit plugin whether the answer reached the client (see credits/delivery.ts). */
  delivery?: Delivery | null;
}

/** Returns the request's instance of something (typically a DataLoader), creating it on first use. */
export function perRequest<T>(ctx: RequestContext, key: string, create: () => T): T {
  let value = ctx.memo.get(key) as T | undefined;
  if (value === undefined) {
    value = create();
    ctx.memo.set(key, value);
  }
  return value;
}

/** The authenticated partner, or an UNAUTHENTICATED error. */
export function requirePartner(ctx: RequestContext): AuthenticatedPartner {
  if (!ctx.partner) throw unauthenticatedError();
  return ctx.partner;
}

export const unauthenticatedError = () => unauthenticated('A valid x-api-key header is required');
