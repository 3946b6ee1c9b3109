/**
 * compose.yaml's load balancer, run for real: its nginx config (compose.nginx.conf) under Debian's nginx
 * in front of a cipgate listening on loopback. Only the parts that name Docker's network are swapped
 * for local ones (the resolver, the replicas' address and the listening port); every location and
 * header rule is the file's own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const SKIPPED = 'SKIPPED: nginx is not installed (Debian: apt-get install nginx; .ci/run installs it)';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** The raw request line's path exactly as written (fetch would normalize `//metrics` or `/./metrics`). */
const rawGet = (port: number, path: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });

describe.skipIf(!NGINX)(`compose.yaml's nginx in front of cipgate${NGINX ? '' : ` (${SKIPPED})`}`, () => {
  let app: TestApp;
  let nginx: ChildProcess | undefined;
  let dir: string;
  let lb: string;
  let lbPort: number;
  let backend: string;
  let apiKey: string;

  beforeAll(async () => {
    const compose = readFileSync(join(root, 'compose.yaml'), 'utf8');
    expect(compose).toMatch(/configs:\s+nginx:\s+(#.*\s+)*file: \.\/compose\.nginx\.conf/);
    app = await startTestApp({ METRICS_ENABLED: 'true' });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (app.http.server.address() as { port: number }).port;
    backend = `http://127.0.0.1:${appPort}`;
    ({ apiKey } = await app.partner(5));

    lbPort = await freePort();
    lb = `http://127.0.0.1:${lbPort}`;
    dir = mkdtempSync(join(tmpdir(), 'cipgate-nginx-'));
    const site = readFileSync(join(root, 'compose.nginx.conf'), 'utf8');
    const local = site
      .replace(/^\s*#.*$/gm, '')
      .replace(/^resolver .*$/m, '')
      .replace(/^(\s*)server cipgate:4000 resolve;$/m, `$1server 127.0.0.1:${appPort};`)
      .replace(/^(\s*)listen 4000;$/m, `$1listen 127.0.0.1:${lbPort};`);
    expect(local).not.toMatch(/cipgate:4000|127\.0\.0\.11|listen 4000/);
    writeFileSync(join(dir, 'site.conf'), local);
    for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t), { mode: 0o777 });
    writeFileSync(
      join(dir, 'nginx.conf'),
      `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
    );
    const started = spawn(
      NGINX as string,
      ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    nginx = started;
    let stderr = '';
    started.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const end = Date.now() + 10_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
      const ok = await fetch(`${lb}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > end) throw new Error(`nginx did not answer: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx?.once('exit', r));
      nginx.kill('SIGTERM');
      await exited;
    }
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('proxies the API: REST and GraphQL over HTTP', async () => {
    const stats = await fetch(`${lb}/partners/stats`, { headers: { 'x-api-key': apiKey } });
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ creditBalance: 5 });
    const gql = await fetch(`${lb}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(gql.status).toBe(200);
    expect(await gql.json()).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('keeps /metrics internal: served by each replica, never through the public side, however spelt', async () => {
    const direct = await fetch(`${backend}/metrics`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toMatch(/^# HELP /m);
    for (const path of [
      '/metrics',
      '/metrics/',
      '/metrics?format=text',
      '//metrics',
      '/./metrics',
      '/x/../metrics',
      '/%6Detrics',
      '/%6d%65trics',
      '/metrics%3F',
      '/metrics;x',
    ]) {
      const res = await rawGet(lbPort, path);
      expect(res.text, path).not.toMatch(/# HELP|# TYPE/);
      expect([400, 404], `${path}: ${res.status}`).toContain(res.status);
    }
  });

  it('passes a WebSocket upgrade on /graphql through: graphql-ws connects and acknowledges', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${lbPort}/graphql`, 'graphql-transport-ws');
    const ack = await new Promise<unknown>((resolve, reject) => {
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': apiKey } })),
      );
      socket.on('message', (data: Buffer) => resolve(JSON.parse(data.toString())));
      socket.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      socket.on('error', reject);
    });
    expect(socket.protocol).toBe('graphql-transport-ws');
    expect(ack).toMatchObject({ type: 'connection_ack' });
    socket.close();
  });
});
