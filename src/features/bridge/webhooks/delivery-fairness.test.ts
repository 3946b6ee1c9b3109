/**
 * Webhook delivery is fair: one partner's receivers that hang hold back only their own webhooks. Another
 * partner's change goes out within one delivery timeout while two processes deliver, each change once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type ChildServer, startChildServer } from '../../../../test/support/child.js';
import { type Standin, startStandin } from '../../../../test/support/http-standin.js';
import { lifiFixture, txHash, waitFor } from './push.test-helper.js';

const TIMEOUT_MS = 3000;

describe('webhook delivery is fair between partners', () => {
  let lifi: Standin;
  let app: TestApp;
  let child: ChildServer;
  let hanging: Server;
  let quick: Server;
  const held = new Set<Socket>();
  let hangingRequests = 0;
  let hangingNow = 0;
  let hangingMost = 0;
  const received: { path: string; delivery: string; at: number }[] = [];
  const base = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  beforeAll(async () => {
    lifi = await startStandin();
    lifi.reply('/v1/status', { json: lifiFixture('status-pending.json') });
    // Takes every request and never answers it.
    hanging = createServer((req) => {
      hangingRequests += 1;
      hangingNow += 1;
      hangingMost = Math.max(hangingMost, hangingNow);
      held.add(req.socket);
      req.socket.once('close', () => {
        hangingNow -= 1;
      });
    });
    quick = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ path: req.url ?? '', delivery: String(req.headers['x-cipgate-delivery']), at: Date.now() });
        res.end('ok');
      });
    });
    await Promise.all([hanging, quick].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
    const env = {
      LIFI_API_URL: `${lifi.url}/v1`,
      PROVIDER_TIMEOUT_MS: '2000',
      BRIDGE_FOLLOW_INTERVAL_MS: '60000',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
    };
    app = await startTestApp(env);
    child = await startChildServer({ ...env, DATABASE_URL: app.database.url });
  }, 120_000);
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await child?.stop();
    await app?.stop();
    await lifi?.close();
    await Promise.all([hanging, quick].map((s) => new Promise((r) => s?.close(r))));
  });

  /** A call, tried again while it answers 503 (two processes share an SQLite file: a busy moment is retried). */
  const call = async (method: 'GET' | 'POST', url: string, key: string, payload?: unknown) => {
    for (let attempt = 0; ; attempt++) {
      const res = await app.http.inject({
        method,
        url,
        headers: { 'x-api-key': key },
        ...(payload ? { payload } : {}),
      });
      if (res.statusCode !== 503 || attempt === 5) return res;
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it("sends another partner's change within one delivery timeout while 10 receivers of one partner hang", async () => {
    const slow = await app.partner(100);
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/partners/webhooks', slow.apiKey, { url: `${base(hanging)}/slow/${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Six transfers of the slow partner: 60 deliveries, each to a receiver that never answers.
    for (let t = 0; t < 6; t++) {
      const res = await call('GET', `/partners/bridge/status?txHash=${txHash(100 + t)}`, slow.apiKey);
      expect(res.statusCode, res.body).toBe(200);
    }
    await waitFor('the slow receivers to be busy', () => hangingRequests >= 10);

    const other = await app.partner(100);
    expect((await call('POST', '/partners/webhooks', other.apiKey, { url: `${base(quick)}/other` })).statusCode).toBe(
      200,
    );
    const started = Date.now();
    const res = await call('GET', `/partners/bridge/status?txHash=${txHash(200)}`, other.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    await waitFor('the other partner’s delivery', () => received.some((r) => r.path === '/other'), 4 * TIMEOUT_MS);
    const delay = (received.find((r) => r.path === '/other')?.at ?? 0) - started;
    console.log(`other partner's delivery after ${delay} ms, ${hangingRequests} requests hanging`);
    expect(delay).toBeLessThan(TIMEOUT_MS);

    // Each webhook has at most one delivery in flight per process: 10 webhooks, 2 processes.
    expect(hangingMost).toBeLessThanOrEqual(2 * 10);
    await new Promise((r) => setTimeout(r, 500));
    expect(received.filter((r) => r.path === '/other')).toHaveLength(1);
    for (const hook of (await call('GET', '/partners/webhooks', slow.apiKey)).json().webhooks as { id: string }[])
      await app.http.inject({
        method: 'DELETE',
        url: `/partners/webhooks/${hook.id}`,
        headers: { 'x-api-key': slow.apiKey },
      });
  }, 60_000);
});
