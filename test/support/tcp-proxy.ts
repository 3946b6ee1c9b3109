import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL, Redis…) that a test can make misbehave:
 * `refuse()` closes the port and every connection (connection refused / reset), `stall()` keeps accepting
 * and holding connections but forwards no byte in either direction (a frozen server or a black-holed
 * network), `resume()` goes back to forwarding, delivering what was held.
 */
export interface TcpProxy {
  port: number;
  /** `target` with its host and port replaced by the proxy's. */
  url(target: string): string;
  refuse(): Promise<void>;
  stall(): void;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'forward' | 'stall' | 'refuse' = 'forward';
  const sockets = new Set<Socket>();
  const held: Array<() => void> = [];

  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (mode === 'stall') held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const onConnection = (client: Socket) => {
    const upstream = tcpConnect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    relay(client, upstream);
    relay(upstream, client);
  };

  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  const closeServer = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  const port = await listen(0);

  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async refuse() {
      mode = 'refuse';
      held.length = 0;
      await closeServer();
    },
    stall() {
      mode = 'stall';
    },
    async resume() {
      if (mode === 'refuse') {
        server = createServer(onConnection);
        await listen(port);
      }
      mode = 'forward';
      for (const deliver of held.splice(0)) deliver();
    },
    async close() {
      mode = 'refuse';
      await closeServer();
    },
  };
}
