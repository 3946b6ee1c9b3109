/**
 * The one subscription, `bridgeStatusChanged`, over graphql-ws on /graphql. Apollo Gateway does not run
 * subscriptions, so this serves them from the bridge subgraph's own schema on the same HTTP server; the
 * field is still composed into the supergraph, so the API schema shows it. Queries and mutations stay on
 * HTTP (with credits and limits); a WebSocket carries subscriptions only, all of them free.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { GraphQLError, type GraphQLSchema, Kind, parse } from 'graphql';
import type { WebSocketServer } from 'ws';
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

/**
 * ws and graphql-ws (with ws's native bufferutil) are loaded at the first WebSocket upgrade, not at
 * start-up: most processes never see one. Until then this answers upgrades and server errors as the
 * WebSocketServer would once attached to the server (`{ server, path }`): each upgrade is handed to it (it
 * refuses other paths with a 400), and server errors are forwarded to it.
 */
export function serveSubscriptions(options: SubscriptionServerOptions): { close(): Promise<void> } {
  let running: { wss: WebSocketServer; dispose(): Promise<void> } | undefined;
  let starting: Promise<NonNullable<typeof running>> | undefined;
  let closed = false;
  const start = () => {
    if (!starting) {
      starting = startServer(options).then((started) => {
        running = started;
        return started;
      });
      // A failed start is not remembered: the next upgrade tries again.
      starting.catch(() => {
        starting = undefined;
      });
    }
    return starting;
  };
  const handle = (wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (running) return handle(running.wss, req, socket, head);
    // A client that goes away while the modules load must not be an uncaught socket error.
    const onSocketError = () => socket.destroy();
    socket.on('error', onSocketError);
    start().then(
      ({ wss }) => {
        socket.off('error', onSocketError);
        if (closed) socket.destroy();
        else handle(wss, req, socket, head);
      },
      (err: unknown) => {
        options.log.error({ err }, 'could not start the WebSocket server');
        socket.destroy();
      },
    );
  };
  const onServerError = (err: Error) => {
    if (running) running.wss.emit('error', err);
    // graphql-ws's words for a server error; there is no client to close yet.
    else console.error('Internal error emitted on the WebSocket server. Please check your implementation.', err);
  };
  options.server.on('upgrade', onUpgrade);
  options.server.on('error', onServerError);
  return {
    async close() {
      closed = true;
      options.server.off('upgrade', onUpgrade);
      options.server.off('error', onServerError);
      const started = await starting?.catch(() => undefined);
      await started?.dispose();
    },
  };
}

async function startServer(
  options: SubscriptionServerOptions,
): Promise<{ wss: WebSocketServer; dispose(): Promise<void> }> {
  const [{ WebSocketServer }, { useServer: graphqlWsServer }] = await Promise.all([
    import('ws'),
    import('graphql-ws/use/ws'),
  ]);
  const wss = new WebSocketServer({ noServer: true, path: '/graphql' });
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
    wss,
    async dispose() {
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
