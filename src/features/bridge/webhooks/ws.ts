/**
 * The one subscription, `bridgeStatusChanged`, over graphql-ws on /graphql. Apollo Gateway does not run
 * subscriptions, so this serves them from the bridge subgraph's own schema on the same HTTP server; the
 * field is still composed into the supergraph, so the API schema shows it. Queries and mutations stay on
 * HTTP; a WebSocket carries subscriptions only.
 *
 * A WebSocket passes the guards HTTP requests pass, with the same limiter and the same answers: the
 * failed-key limit and the partner's rate limit (the connection, and each subscription started), frames
 * no larger than the HTTP body limit (refused before they are read in full), the GraphQL limits (nesting,
 * tokens, depth, aliases, root fields, cost), and the key checked again at every subscription and every
 * KEY_CACHE_TTL_MS on open sockets, so a revoked key loses its socket as soon as HTTP refuses it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger as Logger } from 'fastify';
import {
  type DocumentNode,
  type ExecutionArgs,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import type { Context, Server as GraphqlWsServer } from 'graphql-ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { PriceTable } from '../../../platform/credits/prices.js';
import { AppError, ErrorCode } from '../../../platform/errors.js';
import type { AuthenticatedPartner, RequestContext } from '../../../platform/graphql/context.js';
import {
  braceDepth,
  costRefusal,
  estimateCost,
  limitsValidationRule,
  nestingRefusal,
} from '../../../platform/graphql/limits.js';
import { KEY_CACHE_TTL_MS, verifiedKeyCache } from '../../../platform/http/auth.js';
import type { RateLimits } from '../../../platform/http/rate-limit.js';
import type { Services } from '../../../platform/services.js';
import { clientAddress } from './client-address.js';
import { SUBSCRIPTION_TRANSPORT, type SubscriptionTransport } from './service.js';

/** A subscription start costs what this call costs, read from the price table. */
export const SUBSCRIPTION_PRICED_AS = 'query.bridgeStatus';

export interface SubscriptionServerOptions {
  server: Server;
  schema: GraphQLSchema;
  services: Services;
  log: Logger;
  /** The partner an API key belongs to, or null. */
  authenticate(key: string): Promise<AuthenticatedPartner | null>;
  /** HTTP's limiter (the failed-key and per-partner budgets), shared with it. */
  rateLimits: RateLimits;
  /** The supergraph's price table. */
  prices: PriceTable;
  /** What a caller sees of an error: the function /graphql applies over HTTP. */
  formatError?: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
}

interface Extra {
  socket: WebSocket;
  request: IncomingMessage;
  ip: string;
  key?: string;
  partner?: AuthenticatedPartner;
  /** The transports of this socket's subscriptions, by graphql-ws id. */
  transports: Map<string, SubscriptionTransport>;
}

type Ctx = Context<Record<string, unknown>, Extra>;

/** graphql-ws's close codes for a refused key and a refused rate; 1009 (too big) is ws's own. */
const FORBIDDEN = 4403;
const TOO_MANY = 4429;
/** How graphql-ws words a `next` message: its id, to tell the subscription its event reached the socket. */
const NEXT_MESSAGE = /^\{"id":("(?:[^"\\]|\\.)*"),"type":"next"/;
/** Far past any real operation's nesting, as HTTP's nesting guard (limits.ts) allows. */
const PARSE_NESTING_CEILING = 256;

const errorOf = (message: string, extensions: Record<string, unknown>) => new GraphQLError(message, { extensions });
const appError = (err: AppError) => errorOf(err.message, err.extensions);
/** A WebSocket close reason is at most 123 bytes. */
const reason = (message: string) => (Buffer.byteLength(message) > 123 ? message.slice(0, 120) : message);

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
    // Before the first upgrade there is no WebSocket server; a failure to listen (a port in use) is
    // reported by whoever called listen, in one line (main.ts).
    else if (options.server.listening) options.log.error({ err }, 'HTTP server error');
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
  const [{ WebSocketServer }, { makeServer, handleProtocols, CloseCode }] = await Promise.all([
    import('ws'),
    import('graphql-ws'),
  ]);
  const { config } = options.services;
  const limits = config.graphqlLimits;
  const price = options.prices.get(SUBSCRIPTION_PRICED_AS);
  if (price === undefined) throw new Error(`The price table has no ${SUBSCRIPTION_PRICED_AS}`);
  const verify = verifiedKeyCache(options.authenticate, KEY_CACHE_TTL_MS);
  const addressOf = clientAddress(config.trustProxy);
  const { rateLimits, schema } = options;
  const rules = [...specifiedRules, limitsValidationRule(limits)];
  const format = (errors: readonly GraphQLError[]): GraphQLFormattedError[] =>
    errors.map((e) => (options.formatError ? options.formatError(e.toJSON(), e) : e.toJSON()));

  // Frames over the HTTP body limit are refused (1009) from their header, before they are read or parsed.
  const wss = new WebSocketServer({
    noServer: true,
    path: '/graphql',
    maxPayload: config.bodyLimitBytes,
    handleProtocols,
  });
  const open = new Set<Extra>();

  /** The refusals HTTP answers before and while reading an operation, in the same words and codes. */
  const checkOperation = (payload: {
    query: string;
    operationName?: string | null;
    variables?: Record<string, unknown> | null;
  }): ExecutionArgs | readonly GraphQLError[] => {
    const depth = braceDepth(payload.query);
    if (depth > Math.max(PARSE_NESTING_CEILING, limits.maxDepth)) {
      const { message, extensions } = nestingRefusal(depth, limits);
      return [errorOf(message, extensions ?? {})];
    }
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: limits.maxTokens });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Apollo's code for a syntax error; the token cut-off becomes GRAPHQL_MAX_TOKENS when formatted.
      return [errorOf(message, { code: 'GRAPHQL_PARSE_FAILED' })];
    }
    const invalid = validate(schema, document, rules);
    if (invalid.length) {
      return invalid.map((e) => errorOf(e.message, { code: 'GRAPHQL_VALIDATION_FAILED', ...e.extensions }));
    }
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) {
      return [errorOf('Must provide a single operation, or name one', { code: 'OPERATION_RESOLUTION_FAILURE' })];
    }
    const variables = payload.variables ?? {};
    const { cost } = estimateCost(schema, document, operation, variables, limits.costListSize);
    if (cost > limits.maxCost) {
      const { message, extensions } = costRefusal(operation, cost, limits);
      return [errorOf(message, extensions ?? {})];
    }
    if (operation.operation !== 'subscription') {
      return [
        errorOf('Only subscriptions are served over WebSocket; send queries and mutations over HTTP', {
          code: ErrorCode.BAD_USER_INPUT,
        }),
      ];
    }
    return { schema, document, operationName: payload.operationName, variableValues: variables };
  };

  /** Closes the socket for a limiter's refusal; anything else is the caller's to handle. */
  const refused = (extra: Extra, err: unknown, code: number): boolean => {
    if (!(err instanceof AppError)) return false;
    extra.socket.close(err.code === ErrorCode.RATE_LIMITED ? TOO_MANY : code, reason(err.message));
    return true;
  };

  const server: GraphqlWsServer<Extra> = makeServer<Record<string, unknown>, Extra>({
    schema,
    // The key travels in connectionParams (browsers cannot set headers on a WebSocket). It is checked as
    // HTTP checks a key, in the same buckets: a bad key is counted against its address and refused (4403),
    // or 4429 once the address is past its failed-key budget, as HTTP answers 429.
    onConnect: async (ctx) => {
      const params = ctx.connectionParams ?? {};
      const raw = params['x-api-key'] ?? params.apiKey;
      const key = typeof raw === 'string' ? raw.trim() : '';
      const client = { ip: ctx.extra.ip };
      try {
        if (!key) {
          await rateLimits.address(client, 'graphql');
          return false;
        }
        // As auth.ts does: a key not known valid meets the failed-key budget before it is looked up.
        const partner = await verify(key, () => rateLimits.refuseGuessing(client, 'graphql'));
        if (!partner) {
          await rateLimits.failedKey(client, 'graphql');
          return false;
        }
        await rateLimits.partner(partner.id, 'graphql');
        ctx.extra.key = key;
        ctx.extra.partner = partner;
        return true;
      } catch (err) {
        if (refused(ctx.extra, err, FORBIDDEN)) return false;
        throw err;
      }
    },
    onSubscribe: async (ctx, _id, payload) => {
      const extra = ctx.extra;
      // The key again (cached for KEY_CACHE_TTL_MS, as on HTTP): a revoked key starts nothing.
      const partner = extra.key ? await verify(extra.key) : null;
      if (!partner) {
        extra.socket.close(FORBIDDEN, 'API key revoked');
        return [errorOf('Invalid API key', { code: ErrorCode.UNAUTHENTICATED })];
      }
      extra.partner = partner;
      try {
        // Each start counts against the partner's rate limit, as each HTTP request does.
        await rateLimits.partner(partner.id, 'graphql');
      } catch (err) {
        if (err instanceof AppError) return [appError(err)];
        throw err;
      }
      if (typeof payload.query !== 'string') return [errorOf('query must be a string', { code: 'BAD_REQUEST' })];
      return checkOperation(payload);
    },
    context: (ctx: Ctx, id): RequestContext => {
      const transport: SubscriptionTransport = { price };
      ctx.extra.transports.set(id, transport);
      return {
        requestId: randomUUID(),
        services: options.services,
        partner: ctx.extra.partner ?? null,
        log: options.log,
        operationLabel: 'subscription',
        forwardHeaders: {},
        memo: new Map<string, unknown>([[SUBSCRIPTION_TRANSPORT, transport]]),
      };
    },
    onNext: (_ctx, _id, _payload, _args, result) =>
      result.errors ? { ...result, errors: format(result.errors) } : undefined,
    onError: (_ctx, _id, _payload, errors) => format(errors),
    onComplete: (ctx, id) => {
      ctx.extra.transports.delete(id);
    },
  });

  wss.on('error', (err) => options.log.error({ err }, 'WebSocket server error'));
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const extra: Extra = { socket, request, ip: addressOf(request), transports: new Map() };
    open.add(extra);
    socket.once('error', (err) => {
      options.log.warn({ err }, 'WebSocket error');
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
    // A client that stops answering pings is cut, so its subscriptions end.
    let pongWait: NodeJS.Timeout | undefined;
    const pinger = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => clearTimeout(pongWait));
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            const next = NEXT_MESSAGE.exec(data);
            const transport = next ? extra.transports.get(JSON.parse(next[1] as string) as string) : undefined;
            socket.send(data, (err) => {
              if (err) return reject(err);
              // Written to the socket: what charges a subscription's first event.
              transport?.onDelivered?.();
              resolve();
            });
          }),
        close: (code, why) => socket.close(code, why),
        onMessage: (cb) =>
          socket.on('message', async (event) => {
            try {
              await cb(String(event));
            } catch (err) {
              options.log.error({ err }, 'WebSocket message handling failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      extra,
    );
    socket.once('close', (code, why) => {
      open.delete(extra);
      clearInterval(pinger);
      clearTimeout(pongWait);
      // graphql-ws ends every subscription of the socket (return() on each), which frees them at once.
      void closed(code, String(why)).finally(() => extra.transports.clear());
    });
  });

  // Sockets whose key was revoked are closed within KEY_CACHE_TTL_MS (and one check), as HTTP refuses it.
  let checking = false;
  const recheck = setInterval(() => {
    if (checking || open.size === 0) return;
    checking = true;
    const byKey = new Map<string, Extra[]>();
    for (const extra of open) if (extra.key) byKey.set(extra.key, [...(byKey.get(extra.key) ?? []), extra]);
    void Promise.all(
      [...byKey].map(async ([key, sockets]) => {
        // Asked of the database itself, not the cache, so the bound is HTTP's. A check that fails (database
        // down) proves nothing: the socket stays until one answers.
        const partner = await options.authenticate(key).catch(() => undefined);
        if (partner === null) for (const extra of sockets) extra.socket.close(FORBIDDEN, 'API key revoked');
      }),
    ).finally(() => {
      checking = false;
    });
  }, KEY_CACHE_TTL_MS);
  recheck.unref();

  return {
    wss,
    async dispose() {
      clearInterval(recheck);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** graphql-ws's keep-alive: a ping every 12 s, and a socket that sends no pong within as long is cut. */
const KEEP_ALIVE_MS = 12_000;
