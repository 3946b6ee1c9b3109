import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { withMetered } from '../support/paid-subgraph.js';

// Runs against in-memory counters, or Redis when REDIS_URL is set (CI's second pass).
describe('rate limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      { RATE_LIMIT_PARTNER_MAX: '3', RATE_LIMIT_PUBLIC_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' },
      undefined,
      {
        subgraphs: withMetered(),
      },
    );
  });
  afterAll(() => app.stop());

  it('limits per API key with 429, Retry-After and the partner error shape; a 429 costs nothing', async () => {
    const { apiKey } = await app.partner(10);
    const other = await app.partner(10);
    const call = (key: string) =>
      app.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        payload: { query: '{ meteredEcho(text: "x") }' },
      });
    for (let i = 0; i < 3; i++) expect((await call(apiKey)).statusCode).toBe(200);
    const limited = await call(apiKey);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await call(other.apiKey)).statusCode).toBe(200);
    const stats = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { 'x-api-key': other.apiKey },
    });
    expect(stats.statusCode).toBe(200);
    const limitedStats = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { 'x-api-key': apiKey },
    });
    expect(limitedStats.statusCode).toBe(429);
    expect(limitedStats.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    const usage = await app.services.db.query<{ credit_usage: number }>(
      'select credit_usage from partner where id = (select partner_id from api_key where prefix = ?)',
      [apiKey.slice(0, 12)],
    );
    expect(Number(usage[0]?.credit_usage)).toBe(3);
  });

  it('limits the public interface per client address, with {message}', async () => {
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const call = () =>
      app.http.inject({ method: 'GET', url: '/api/public/does-not-matter', headers: { 'x-forwarded-for': ip } });
    await call();
    await call();
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(Object.keys(limited.json())).toEqual(['message']);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('never limits health checks', async () => {
    for (let i = 0; i < 5; i++)
      expect((await app.http.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
