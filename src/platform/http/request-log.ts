import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Probes are polled every few seconds: at info they would drown every other line. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** What a request did, for its log line: the REST route, or the GraphQL operation's name. */
function operationOf(request: FastifyRequest): string | undefined {
  const route = request.routeOptions.url;
  if (route !== '/graphql') return route;
  const source = (request.method === 'GET' ? request.query : request.body) as { operationName?: unknown } | undefined;
  return typeof source?.operationName === 'string' ? source.operationName.slice(0, 100) : undefined;
}

/** Fastify's logger is pino (or its no-op stand-in, which has no levels to ask about). */
const infoEnabled = (log: object): boolean =>
  (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;

/**
 * Fastify's request lines, with who asked and what it cost: one "request completed" line carries the
 * partner id, the operation, the credits the answer charges (the x-credits-charged header) and the status.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (PROBES.has(request.routeOptions.url ?? '')) request.log.debug({ req: request }, 'incoming request');
    else request.log.info({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // At warn (production's usual level) a served request writes nothing: build no line for it.
    if (!error && !infoEnabled(reply.log)) return;
    const charged = reply.getHeader('x-credits-charged');
    const line = {
      res: reply,
      responseTime: reply.elapsedTime,
      partnerId: request.partner?.id,
      operation: operationOf(request),
      creditsCharged: charged === undefined ? undefined : Number(charged),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (PROBES.has(request.routeOptions.url ?? '')) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
