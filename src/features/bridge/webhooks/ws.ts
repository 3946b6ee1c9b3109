/**
 * The one subscription, `bridgeStatusChanged`, over graphql-ws on /graphql. Apollo Gateway does not run
 * subscriptions, so this serves them from the bridge subgraph's own schema on the same HTTP server; the
 * field is still composed into the supergraph, so the API schema shows it. Queries and mutations stay on
 * HTTP (with credits and limits); a WebSocket carries subscriptions only, all of them free.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { GraphQLError, type GraphQLSchema, Kind, parse } from 'graphql';
import { useServer as graphqlWsServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AuthenticatedPartner, RequestContext } from '../../../platform/graphql/context.js';
import type { Services } from '../../../platform/services.js';

export interface SubscriptionServerOptions {
  server: Server;
  schema: GraphQLSchema;
  services: Services;
  log: Logger;
  /** The partner an API key belongs to, or null. */
  authenticate(key: string): Promise<AuthenticatedPartner | null>;
}

type Extra = { partner?: AuthenticatedPartner };

export function serveSubscriptions(options: SubscriptionServerOptions): { close(): Promise<void> } {
  const wss = new WebSocketServer({ server: options.server, path: '/graphql' });
  const server = graphqlWsServer<Record<string, unknown>, Extra>(
    {
      schema: options.schema,
      // The key travels in connectionParams (browsers cannot set headers on a WebSocket); a bad one closes
      // the socket with 4403 before any subscription runs.
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const key = params['x-api-key'] ?? params.apiKey;
        const partner = typeof key === 'string' && key ? await options.authenticate(key) : null;
        if (!partner) return false;
        ctx.extra.partner = partner;
        return true;
      },
      onSubscribe: (_ctx, _id, payload) => {
        let operation: string | undefined;
        try {
          const document = parse(payload.query);
          const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
          const chosen = payload.operationName
            ? ops.find((d) => d.name?.value === payload.operationName)
            : ops.length === 1
              ? ops[0]
              : undefined;
          operation = chosen?.operation;
        } catch {
          return undefined; // graphql-ws reports the syntax error itself
        }
        if (operation !== 'subscription') {
          return [
            new GraphQLError('Only subscriptions are served over WebSocket; send queries and mutations over HTTP', {
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          ];
        }
        return undefined;
      },
      context: (ctx): RequestContext => ({
        requestId: randomUUID(),
        services: options.services,
        partner: ctx.extra.partner ?? null,
        log: options.log,
        operationLabel: 'subscription',
        forwardHeaders: {},
        memo: new Map(),
      }),
    },
    wss,
  );
  return {
    async close() {
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
