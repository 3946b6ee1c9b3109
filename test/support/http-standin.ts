/**
 * A local stand-in for an HTTP upstream: node:http on 127.0.0.1 with an ephemeral port. Tests register
 * canned answers (or handlers) per path, make a path fail, stall or hang, and count what arrived.
 *
 *   const upstream = await startStandin();
 *   upstream.reply('/quote', { json: fixture });
 *   upstream.sequence('/chains', [{ status: 503 }, { json: chains }]);
 *   ... createLifiProvider({ baseUrl: upstream.url, ... })
 *   expect(upstream.count('/quote')).toBe(1);
 *   await upstream.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinReply {
  /** Defaults to 200. */
  status?: number;
  /** Serialised as the JSON body. */
  json?: unknown;
  /** Raw body, when the test wants something that is not JSON. */
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (until the stand-in closes). */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The request body, parsed as JSON when it is JSON (undefined when empty). */
  body?: unknown;
}

export type StandinHandler = (request: RecordedRequest) => StandinReply | Promise<StandinReply>;

export interface Standin {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Always answer `path` with this reply (or whatever the handler returns). */
  reply(path: string, reply: StandinReply | StandinHandler): void;
  /** Answer successive requests to `path` with successive replies; the last one repeats. */
  sequence(path: string, replies: readonly StandinReply[]): void;
  /** Requests received for `path` (any query). */
  count(path: string): number;
  /** Requests received, optionally only those for `path`. */
  requests(path?: string): RecordedRequest[];
  /** Forget the recorded requests (routes stay). */
  resetCounts(): void;
  close(): Promise<void>;
}

export async function startStandin(): Promise<Standin> {
  const routes = new Map<string, StandinHandler>();
  const log: RecordedRequest[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://standin.invalid');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
    };
    log.push(recorded);
    const handler = routes.get(url.pathname);
    const answer = async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (text !== '') {
        try {
          recorded.body = JSON.parse(text);
        } catch {
          recorded.body = text;
        }
      }
      const reply: StandinReply = handler
        ? await handler(recorded)
        : { status: 404, json: { message: `stand-in has no route for ${url.pathname}` } };
      if (reply.hang) return;
      if (reply.delayMs !== undefined && reply.delayMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            pendingTimers.delete(timer);
            resolve();
          }, reply.delayMs);
          pendingTimers.add(timer);
        });
      }
      if (res.destroyed) return;
      const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
      res.writeHead(reply.status ?? 200, {
        ...(reply.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...reply.headers,
      });
      res.end(body);
    };
    answer().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`stand-in handler failed: ${String(err)}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    reply(path, reply) {
      routes.set(path, typeof reply === 'function' ? reply : () => reply);
    },
    sequence(path, replies) {
      if (replies.length === 0) throw new Error('sequence needs at least one reply');
      let next = 0;
      routes.set(path, () => {
        const reply = replies[Math.min(next, replies.length - 1)] as StandinReply;
        next += 1;
        return reply;
      });
    },
    count(path) {
      return log.filter((r) => r.path === path).length;
    },
    requests(path) {
      return path === undefined ? [...log] : log.filter((r) => r.path === path);
    },
    resetCounts() {
      log.length = 0;
    },
    close() {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      // Hanging requests keep their sockets open; cut them so close() returns.
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
