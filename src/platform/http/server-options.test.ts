import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { ConfigError, loadConfig } from '../config.js';
import { connectionsCheckingInterval } from './server-options.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Short limits, so the test is quick: the defaults are 30 s and 10 s. */
const REQUEST_TIMEOUT_MS = 1000;
const HEADERS_TIMEOUT_MS = 500;
/** node:http looks for late requests at an interval: a request is cut within the limit plus one of those. */
const CUT_WITHIN_MS = REQUEST_TIMEOUT_MS + connectionsCheckingInterval(HEADERS_TIMEOUT_MS) + 500;

interface Trickle {
  socket: Socket;
  /** Milliseconds from the first byte to the server closing the connection, once it has. */
  closedAfter?: number;
  answer: string;
}

/** A client that sends its request a byte every `everyMs`, never finishing it. */
function trickle(port: number, head: string, everyMs: number): Trickle {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  const client: Trickle = { socket, answer: '' };
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write(head);
    timer = setInterval(() => socket.write(' '), everyMs);
  });
  socket.on('data', (chunk) => {
    client.answer += chunk.toString();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    clearInterval(timer);
    client.closedAfter = performance.now() - started;
  });
  return client;
}

describe('slow clients are cut off; others are served meanwhile', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    app = await startTestApp({
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_MAX_CONNECTIONS: '200',
    });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const address = app.http.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => app?.stop());

  it('closes 80 POSTs whose bodies trickle in, within the request timeout, and answers a normal request', async () => {
    const body = (n: number) =>
      `POST /api/public/identity/names HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${n}\r\n\r\n{`;
    const clients = Array.from({ length: 80 }, () => trickle(port, body(1000), 100));
    // Headers trickling in are cut at the (shorter) headers timeout.
    const slowHeaders = Array.from({ length: 10 }, () => trickle(port, 'GET /healthz HTTP/1.1\r\nX-Slow: ', 100));
    await sleep(300);
    const normal = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(normal.status).toBe(200);
    await expect.poll(() => clients.every((c) => c.closedAfter !== undefined), { timeout: 5000 }).toBe(true);
    await expect.poll(() => slowHeaders.every((c) => c.closedAfter !== undefined), { timeout: 5000 }).toBe(true);
    for (const client of [...clients, ...slowHeaders]) {
      expect(client.closedAfter).toBeLessThan(CUT_WITHIN_MS);
      expect(client.answer).toMatch(/^HTTP\/1\.1 408 /);
    }
    for (const client of slowHeaders) expect(client.closedAfter).toBeLessThan(CUT_WITHIN_MS - HEADERS_TIMEOUT_MS);
    // Still serving afterwards.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it('leaves an upgraded WebSocket on /graphql open past the request timeout', async () => {
    const { apiKey } = await app.partner(1);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    const messages: { type: string }[] = [];
    let closed = false;
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    ws.on('close', () => {
      closed = true;
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': apiKey } }));
    await expect.poll(() => messages.map((m) => m.type)).toContain('connection_ack');
    await sleep(CUT_WITHIN_MS + 300);
    expect(closed).toBe(false);
    ws.send(JSON.stringify({ type: 'ping' }));
    await expect.poll(() => messages.map((m) => m.type)).toContain('pong');
    ws.close();
  });
});

describe('connection cap (HTTP_MAX_CONNECTIONS)', () => {
  it('drops connections past the cap, and serves again once some close', async () => {
    const app = await startTestApp({ HTTP_MAX_CONNECTIONS: '3' });
    try {
      await app.http.listen({ port: 0, host: '127.0.0.1' });
      const address = app.http.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const held = Array.from({ length: 3 }, () => trickle(port, 'GET /healthz HTTP/1.1\r\nX-Slow: ', 100));
      await sleep(200);
      const extra = trickle(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 1000);
      await expect.poll(() => extra.closedAfter, { timeout: 3000 }).toBeDefined();
      expect(extra.answer).toBe('');
      for (const client of held) client.socket.destroy();
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});

describe('server limits in the configuration', () => {
  it('has defaults fit for a reverse proxy in front, and refuses headers allowed longer than the request', () => {
    expect(loadConfig({}).http).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      idleTimeoutMs: 120_000,
      maxConnections: 10_000,
    });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' }).http.headersTimeoutMs).toBe(5000);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS \(6000\) must not exceed HTTP_REQUEST_TIMEOUT_MS \(5000\)/,
    );
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '10' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
  });
});
