/**
 * Status pushed to partners, end to end: a LI.FI stand-in whose status answer changes over time, a webhook
 * receiver on loopback that is down at first, and a graphql-ws subscriber on the listening server.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type Standin, startStandin } from '../../../../test/support/http-standin.js';

const lifiFixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../test/fixtures/lifi/${name}`, import.meta.url), 'utf8'));
// The hash LI.FI's documented status answers are about.
const TX = '0xe1ffdcf09d5aa92a2d89b1b39db3f8cadf09428a296cce0d5e387595ac83d08f';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: { type: string; txHash: string; sequence: number; transfer: { status: string } };
}

interface Change {
  txHash: string;
  sequence: number;
  transfer: { status: string; progress: number };
}

const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('bridge status pushed to partners', () => {
  let lifi: Standin;
  let app: TestApp;
  let receiver: Server;
  let receiverUrl: string;
  let receiverDown = true;
  let refused = 0;
  const received: Received[] = [];
  let apiKey: string;
  let port: number;

  beforeAll(async () => {
    lifi = await startStandin();
    lifi.reply('/v1/status', { status: 404, json: lifiFixture('status-not-found.json') });
    receiver = createServer((req, res) => {
      if (receiverDown) {
        refused += 1;
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/cipgate`;
    app = await startTestApp({
      LIFI_API_URL: `${lifi.url}/v1`,
      PROVIDER_TIMEOUT_MS: '2000',
      BRIDGE_FOLLOW_INTERVAL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
    });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    port = (app.http.server.address() as AddressInfo).port;
    ({ apiKey } = await app.partner(100));
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([lifi?.close(), new Promise((r) => receiver?.close(r))]);
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, key = apiKey) =>
    app.http.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });
  const balance = async () => (await call('GET', '/partners/stats')).json().creditBalance as number;

  it('refuses bad webhook URLs with free 400s', async () => {
    const before = await balance();
    for (const url of [
      'not a url',
      'ftp://example.com/hook',
      'http://93.184.216.34/hook', // http to a public address
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://172.20.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://user:pw@93.184.216.34/hook',
    ]) {
      const res = await call('POST', '/partners/webhooks', { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await call('POST', '/partners/webhooks', {})).statusCode).toBe(400);
    expect((await call('POST', '/partners/webhooks', { url: 'x'.repeat(3000) })).statusCode).toBe(400);
    const gql = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: { query: 'mutation { registerWebhook(url: "https://10.0.0.1/x") { id secret } }' },
    });
    expect(gql.json().errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await call('GET', '/partners/webhooks')).json()).toEqual({ webhooks: [] });
    expect(await balance()).toBe(before);
  });

  it('lists and deletes webhooks, free', async () => {
    const before = await balance();
    const created = await call('POST', '/partners/webhooks', { url: receiverUrl });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json();
    expect((await call('GET', '/partners/webhooks')).json().webhooks.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await call('GET', '/partners/webhooks')).json().webhooks[0]).not.toHaveProperty('secret');
    const deleted = await call('DELETE', `/partners/webhooks/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ id, url: receiverUrl });
    expect((await call('DELETE', `/partners/webhooks/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', '/partners/webhooks/nope')).statusCode).toBe(400);
    const { apiKey: other } = await app.partner(10);
    const mine = (await call('POST', '/partners/webhooks', { url: receiverUrl })).json().id;
    expect((await call('DELETE', `/partners/webhooks/${mine}`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', `/partners/webhooks/${mine}/deliveries`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', `/partners/webhooks/${mine}/deliveries?limit=0`)).statusCode).toBe(400);
    expect((await call('DELETE', `/partners/webhooks/${mine}`)).statusCode).toBe(200);
    expect(await balance()).toBe(before);
  });

  it('deletes a webhook named in upper case, and holds the cap of 10 under 40 concurrent registrations', async () => {
    const { apiKey: key } = await app.partner(10);
    const id = (await call('POST', '/partners/webhooks', { url: receiverUrl }, key)).json().id as string;
    const deleted = await call('DELETE', `/partners/webhooks/${id.toUpperCase()}`, undefined, key);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().id).toBe(id);
    expect((await call('GET', '/partners/webhooks', undefined, key)).json()).toEqual({ webhooks: [] });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => call('POST', '/partners/webhooks', { url: receiverUrl }, key)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expect(refused.json()).toMatchObject({ statusCode: 400, message: 'At most 10 webhooks per partner' });
    }
    expect((await call('GET', '/partners/webhooks', undefined, key)).json().webhooks).toHaveLength(10);
    for (const { id: left } of (await call('GET', '/partners/webhooks', undefined, key)).json().webhooks) {
      expect((await call('DELETE', `/partners/webhooks/${left}`, undefined, key)).statusCode).toBe(200);
    }
  });

  it('refuses a subscription sent over HTTP, pointing at graphql-ws', async () => {
    const res = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: { query: `subscription { bridgeStatusChanged(txHash: "${TX}") { sequence } }` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/graphql-ws/);
  });

  it('delivers each change once, signed, after the receiver comes back; a subscription sees the same, charged once', async () => {
    const before = await balance();
    const created = await call('POST', '/partners/webhooks', { url: receiverUrl });
    expect(created.statusCode, created.body).toBe(200);
    const { id, secret } = created.json() as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);

    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': apiKey },
      retryAttempts: 0,
    });
    const seen: Change[] = [];
    const finished = new Promise<void>((resolve, reject) => {
      client.subscribe<{ bridgeStatusChanged: Change }>(
        {
          query: `subscription ($tx: String!) {
            bridgeStatusChanged(txHash: $tx) { txHash sequence transfer { status progress } }
          }`,
          variables: { tx: TX },
        },
        {
          next: (r) => {
            if (r.errors) reject(new Error(JSON.stringify(r.errors)));
            else if (r.data) seen.push(r.data.bridgeStatusChanged);
          },
          error: reject,
          complete: resolve,
        },
      );
    });
    try {
      await waitFor('NOT_FOUND', () => seen.length === 1);
      lifi.reply('/v1/status', { json: lifiFixture('status-pending.json') });
      await waitFor('PENDING', () => seen.length === 2);
      lifi.reply('/v1/status', { json: lifiFixture('status-done.json') });
      await finished;
    } finally {
      await client.dispose();
    }
    expect(seen.map((c) => [c.sequence, c.transfer.status])).toEqual([
      [1, 'NOT_FOUND'],
      [2, 'PENDING'],
      [3, 'DONE'],
    ]);

    // The receiver was down all along: every attempt so far failed and is recorded.
    await waitFor('a refused attempt', () => refused > 0);
    expect(received).toEqual([]);
    const pending = (await call('GET', `/partners/webhooks/${id}/deliveries`)).json().deliveries;
    expect(pending.every((d: { state: string }) => d.state === 'pending')).toBe(true);
    expect(pending.some((d: { attempts: number; lastError: string | null }) => d.attempts > 0 && d.lastError)).toBe(
      true,
    );

    receiverDown = false;
    await waitFor('three deliveries', () => received.length >= 3);
    // Retries keep going for a while after: nothing is sent twice.
    await new Promise((r) => setTimeout(r, 1000));
    expect(received.map((r) => [r.body.sequence, r.body.transfer.status])).toEqual(
      seen.map((c) => [c.sequence, c.transfer.status]),
    );
    for (const r of received) {
      expect(r.body).toMatchObject({ type: 'bridge.status_changed', txHash: TX });
      const header = String(r.headers['x-cipgate-signature']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${r.raw}`).digest('hex'));
      expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(60);
    }
    expect(new Set(received.map((r) => r.headers['x-cipgate-delivery'])).size).toBe(3);
    const done = (await call('GET', `/partners/webhooks/${id}/deliveries`)).json().deliveries;
    expect(done.map((d: { sequence: number; state: string }) => [d.sequence, d.state])).toEqual([
      [3, 'delivered'],
      [2, 'delivered'],
      [1, 'delivered'],
    ]);
    expect(done.find((d: { sequence: number }) => d.sequence === 1).attempts).toBeGreaterThan(1);
    // Webhooks are free; the subscription was charged once, bridgeStatus's 1 credit, for three events.
    expect(await balance()).toBe(before - 1);
  });

  it('sends a signed test event on demand and says what the receiver answered, free', async () => {
    const { apiKey: key } = await app.partner(5);
    const registered = (await call('POST', '/partners/webhooks', { url: receiverUrl }, key)).json();
    receiverDown = false;
    received.length = 0;
    const ok = await call('POST', `/partners/webhooks/${registered.id}/test`, undefined, key);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ delivered: true, statusCode: 200, error: null });
    expect(received).toHaveLength(1);
    const [event] = received;
    expect(event?.body).toEqual({ type: 'test', webhookId: registered.id, sentAt: ok.json().sentAt });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(event?.headers['x-cipgate-signature'])) ?? [];
    expect(v1).toBe(createHmac('sha256', registered.secret).update(`${t}.${event?.raw}`).digest('hex'));
    receiverDown = true;
    const down = (await call('POST', `/partners/webhooks/${registered.id}/test`, undefined, key)).json();
    expect(down).toMatchObject({ delivered: false, statusCode: null });
    expect(down.error).toEqual(expect.any(String));
    // Not recorded as a delivery, and free.
    expect((await call('GET', `/partners/webhooks/${registered.id}/deliveries`, undefined, key)).json()).toEqual({
      deliveries: [],
    });
    expect((await call('GET', '/partners/stats', undefined, key)).json().creditBalance).toBe(5);
    expect(
      (await call('POST', '/partners/webhooks/00000000-0000-4000-8000-000000000000/test', undefined, key)).statusCode,
    ).toBe(404);
  });

  it('refuses a WebSocket without a valid key', async () => {
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': 'cgk_wrong_key' },
      retryAttempts: 0,
    });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: `subscription { bridgeStatusChanged(txHash: "${TX}") { sequence } }` },
        { next: () => resolve('data'), error: (e) => resolve(e), complete: () => resolve('complete') },
      );
    });
    await client.dispose();
    expect((outcome as { code?: number }).code).toBe(4403);
  });
});
