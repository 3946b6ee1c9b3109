import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';

/**
 * A loopback round-robin HTTP load balancer, as any production one behaves for cipgate: each request
 * goes to the next backend; a backend that refuses the connection (stopped) is skipped, which is safe
 * because nothing was sent yet; a backend that dies mid-request costs that request a 502. Answers carry
 * `x-backend` (the backend's index) so a test can tell who answered.
 */
export interface LoadBalancer {
  url: string;
  close(): Promise<void>;
}

export async function startLoadBalancer(backends: string[]): Promise<LoadBalancer> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tried: number) => {
        const index = next++ % backends.length;
        const target = new URL(req.url ?? '/', backends[index]);
        const upstream = httpRequest(
          target,
          { method: req.method, headers: req.headers },
          (answer: IncomingMessage) => {
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-backend': String(index) });
            answer.pipe(res);
            answer.on('error', () => res.destroy());
          },
        );
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code === 'ECONNREFUSED' && tried + 1 < backends.length) return attempt(tried + 1);
          if (res.headersSent) return res.destroy();
          res.writeHead(502, { 'content-type': 'application/json', 'x-backend': String(index) });
          res.end(JSON.stringify({ message: `backend ${index} failed: ${err.code ?? err.message}` }));
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
