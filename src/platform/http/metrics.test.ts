import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { startStandin } from '../../../test/support/http-standin.js';
import { createHttpClient } from '../upstream/client.js';

/** The value of one series (name plus exact label set) in Prometheus' text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(name)) continue;
    const match = /^([^{\s]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PUBLIC_MAX: '2' });
  });
  afterAll(() => app.stop());

  const metrics = async () => {
    const res = await app.http.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('exposes requests, credits, upstream calls, breakers, the DB pool and rate-limit refusals', async () => {
    const before = await metrics();
    const { apiKey } = await app.partner(10, 'Sandbox Partner', { sandbox: true });
    const headers = { 'x-api-key': apiKey };
    expect((await app.http.inject({ method: 'GET', url: '/partners/bridge/chains', headers })).statusCode).toBe(200);
    expect((await app.http.inject({ method: 'GET', url: '/partners/bridge/chains', headers })).statusCode).toBe(200);
    // A fresh address each run: with Redis, budgets are shared by every process for a whole window.
    const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    expect((await app.http.inject({ method: 'GET', url: '/partners/stats', remoteAddress })).statusCode).toBe(401);
    // The public budget is 2 per window for this address (the 401 used one): a later call is refused.
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await app.http.inject({ method: 'GET', url: '/api/public/identity/name/alice.move', remoteAddress }))
          .statusCode,
      );
    }
    expect(statuses).toContain(429);

    // An upstream that answers once and then fails: one ok call, one error that opens the breaker.
    const upstream = await startStandin();
    try {
      upstream.sequence('/x', [{ json: { ok: true } }, { status: 500, json: {} }]);
      const provider = `metrics-test-${Date.now()}`;
      const client = createHttpClient({
        name: provider,
        baseUrl: upstream.url,
        timeoutMs: 2000,
        retries: 0,
        breaker: { failureThreshold: 1, cooldownMs: 60_000 },
      });
      await client.getJson('/x');
      await expect(client.getJson('/x')).rejects.toThrow();
      // Settlement happens once the answers are delivered; let it finish before reading the counter.
      await app.services.ledger.whenSettled();
      const text = await metrics();

      expect(sample(text, 'cipgate_upstream_request_duration_seconds_count', { provider, outcome: 'ok' })).toBe(1);
      expect(sample(text, 'cipgate_upstream_request_duration_seconds_count', { provider, outcome: 'error' })).toBe(1);
      expect(sample(text, 'cipgate_upstream_errors_total', { provider, reason: 'http_500' })).toBe(1);
      expect(sample(text, 'cipgate_upstream_breaker_state', { provider, state: 'open' })).toBe(1);
      expect(sample(text, 'cipgate_upstream_breaker_state', { provider, state: 'closed' })).toBe(0);

      const count = (t: string, labels: Record<string, string>) =>
        sample(t, 'cipgate_http_request_duration_seconds_count', labels) ?? 0;
      const chains = { method: 'GET', route: '/partners/bridge/chains', status: '200' };
      expect(count(text, chains) - count(before, chains)).toBe(2);
      const unauthorized = { method: 'GET', route: '/partners/stats', status: '401' };
      expect(count(text, unauthorized) - count(before, unauthorized)).toBe(1);
      const charged = (t: string) => sample(t, 'cipgate_credits_charged_total', { operation: 'bridgeChains' }) ?? 0;
      expect(charged(text) - charged(before)).toBe(2);
      const refusals = (t: string) => sample(t, 'cipgate_rate_limit_refusals_total', { surface: 'public' }) ?? 0;
      expect(refusals(text) - refusals(before)).toBeGreaterThanOrEqual(1);

      for (const state of ['total', 'idle', 'waiting']) {
        expect(sample(text, 'cipgate_db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
      }
      if (app.services.db.dialect === 'postgresql') {
        expect(sample(text, 'cipgate_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      }
      // Default process metrics come along.
      expect(sample(text, 'cipgate_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    } finally {
      await upstream.close();
    }
  });

  it('is not served when METRICS_ENABLED=false', async () => {
    const off = await startTestApp({ METRICS_ENABLED: 'false' });
    try {
      const res = await off.http.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain('cipgate_http_request_duration_seconds');
    } finally {
      await off.stop();
    }
  });
});
