/**
 * A loopback upstream that answers every request with a 200 whose body never ends (a broken or hostile
 * upstream), or that claims a huge Content-Length. It counts the bytes it managed to send and notices
 * when the client drops the socket, so tests can prove a reader stopped instead of buffering forever.
 *
 *   const upstream = await startEndlessUpstream();
 *   ... point a client at upstream.url, expect the call to fail ...
 *   await upstream.closed(1); // the client dropped its connection
 *   await upstream.close();
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EndlessUpstream {
  readonly url: string;
  /** Requests received. */
  readonly requests: number;
  /** Body bytes written so far over all requests. */
  readonly bytesSent: number;
  /** Resolves once `count` client connections have been closed by the client (or rejects after `ms`). */
  closed(count: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export interface EndlessOptions {
  /** Send this Content-Length header (a lie, for the upfront check) instead of chunked encoding. */
  declaredLength?: number;
}

const CHUNK = Buffer.from(`"${'x'.repeat(64 * 1024 - 3)}",`);

export async function startEndlessUpstream(options: EndlessOptions = {}): Promise<EndlessUpstream> {
  let requests = 0;
  let bytesSent = 0;
  let socketsClosed = 0;
  const waiters = new Set<() => void>();
  const live = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    requests += 1;
    req.resume();
    live.add(res);
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(options.declaredLength !== undefined ? { 'content-length': String(options.declaredLength) } : {}),
    });
    res.write('[');
    const pump = () => {
      // Respect back-pressure: a client that stops reading stops us too, as a real server would.
      while (!res.destroyed && res.write(CHUNK)) bytesSent += CHUNK.length;
      if (!res.destroyed) bytesSent += CHUNK.length;
    };
    res.on('drain', pump);
    res.on('close', () => live.delete(res));
    pump();
  });
  server.on('connection', (socket) =>
    socket.on('close', () => {
      socketsClosed += 1;
      for (const wake of waiters) wake();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get bytesSent() {
      return bytesSent;
    },
    closed(count, ms = 2_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (socketsClosed < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`only ${socketsClosed} of ${count} connections closed within ${ms} ms`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const res of live) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
