import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { issueApiKey } from '../../../test/support/features.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { ConfigError, loadConfig } from '../config.js';
import type { AuthenticatedPartner } from '../graphql/context.js';
import { authPlugin } from './auth.js';
import { errorHandlerPlugin } from './error-handler.js';
import { rateLimitPlugin } from './rate-limit.js';

// Runs against in-memory counters, or the shared Redis when REDIS_URL is set (CI's second pass). Each test
// uses its own client address: with Redis, counters outlive the app and are shared with other test files.
const randomAddress = () => `10.${randomBytes(3).join('.')}`;
const madeUpKey = () => `cgk_${randomBytes(4).toString('hex')}_${randomBytes(32).toString('base64url')}`;

const LIMITS = {
  RATE_LIMIT_PARTNER_MAX: '3',
  RATE_LIMIT_PUBLIC_MAX: '4',
  RATE_LIMIT_FAILED_AUTH_MAX: '2',
  RATE_LIMIT_WINDOW_MS: '60000',
};

describe('rate limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(LIMITS, undefined, { subgraphs: withMetered() });
  });
  afterAll(() => app.stop());

  const stats = (key: string | undefined, remoteAddress = randomAddress(), url = '/partners/stats') =>
    app.http.inject({ method: 'GET', url, remoteAddress, headers: key === undefined ? {} : { 'x-api-key': key } });
  const publicCall = (remoteAddress: string, headers: Record<string, string> = {}) =>
    app.http.inject({ method: 'GET', url: '/api/public/does-not-matter', remoteAddress, headers });

  it('limits per partner with 429, Retry-After and the partner error shape; a 429 costs nothing', async () => {
    const { apiKey } = await app.partner(10);
    const other = await app.partner(10);
    const call = (key: string) =>
      app.http.inject({
        method: 'POST',
        url: '/graphql',
        remoteAddress: randomAddress(),
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        payload: { query: '{ meteredEcho(text: "x") }' },
      });
    for (let i = 0; i < 3; i++) expect((await call(apiKey)).statusCode).toBe(200);
    const limited = await call(apiKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another partner has its own budget.
    expect((await stats(other.apiKey)).statusCode).toBe(200);
    const limitedStats = await stats(apiKey);
    expect(limitedStats.statusCode).toBe(429);
    expect(limitedStats.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Number(limitedStats.headers['retry-after'])).toBeGreaterThan(0);
    const usage = await app.services.db.query<{ credit_usage: number }>(
      'select credit_usage from partner where id = (select partner_id from api_key where prefix = ?)',
      [apiKey.slice(0, 12)],
    );
    expect(Number(usage[0]?.credit_usage)).toBe(3);
  });

  it('tells every answer its budget in the IETF RateLimit fields, partner and address alike, 429 included', async () => {
    const { apiKey } = await app.partner(10);
    const first = await stats(apiKey);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"partner";q=3;w=60');
    expect(first.headers.ratelimit).toMatch(/^"partner";r=2;t=([1-9]|[1-5]\d|60)$/);
    await stats(apiKey);
    await stats(apiKey);
    const limited = await stats(apiKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-policy']).toBe('"partner";q=3;w=60');
    expect(limited.headers.ratelimit).toMatch(/^"partner";r=0;t=\d+$/);
    expect(limited.headers.ratelimit?.toString().split('t=')[1]).toBe(limited.headers['retry-after']);
    const address = randomAddress();
    const keyless = await publicCall(address);
    expect(keyless.headers['ratelimit-policy']).toBe('"address";q=4;w=60');
    expect(keyless.headers.ratelimit).toMatch(/^"address";r=3;t=\d+$/);
  });

  it('counts every key of one partner in one bucket', async () => {
    const { id, apiKey } = await app.partner(10);
    const second = await issueApiKey(app.services.db, id, 'second');
    expect((await stats(apiKey)).statusCode).toBe(200);
    expect((await stats(second.apiKey)).statusCode).toBe(200);
    expect((await stats(apiKey)).statusCode).toBe(200);
    expect((await stats(second.apiKey)).statusCode).toBe(429);
    expect((await stats(apiKey)).statusCode).toBe(429);
  });

  it('limits the public interface per client address, with {message}', async () => {
    const ip = randomAddress();
    for (let i = 0; i < 4; i++) expect((await publicCall(ip)).statusCode).toBe(404);
    const limited = await publicCall(ip);
    expect(limited.statusCode).toBe(429);
    expect(Object.keys(limited.json())).toEqual(['message']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await publicCall(randomAddress())).statusCode).toBe(404);
  });

  it('does not believe X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const ip = randomAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await publicCall(ip, { 'x-forwarded-for': randomAddress() })).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
  });

  it('counts unknown paths against the address, and never limits health checks', async () => {
    const ip = randomAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await app.http.inject({ method: 'GET', url: `/nothing-${i}`, remoteAddress: ip })).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404, 429]);
    for (const url of ['/healthz', '/healthz?x=1', '/readyz']) {
      const answer = await app.http.inject({ method: 'GET', url, remoteAddress: ip });
      expect(answer.statusCode).toBe(200);
    }
  });

  it('limits a made-up key per request by client address', async () => {
    // A fresh failed-key budget is 2, so spread the made-up keys over the address bucket (4) via GraphQL
    // and the partner routes, from one address: the address limit, not the key, decides.
    const ip = randomAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await stats(madeUpKey(), ip)).statusCode);
    for (let i = 0; i < 2; i++) statuses.push((await publicCall(ip)).statusCode);
    statuses.push((await stats(madeUpKey(), ip)).statusCode);
    expect(statuses).toEqual([401, 401, 404, 404, 429]);
  });

  it('refuses key guessing once the failed-key budget is used, but never a valid key', async () => {
    const ip = randomAddress();
    const { apiKey } = await app.partner(10);
    const wrongSecret = `${apiKey.slice(0, 13)}${randomBytes(32).toString('base64url')}`;
    expect((await stats(wrongSecret, ip)).statusCode).toBe(401);
    expect((await stats(madeUpKey(), ip)).statusCode).toBe(401);
    const refused = await stats(madeUpKey(), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Guessing on /graphql is refused too.
    const graphql = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', 'x-api-key': madeUpKey() },
      payload: { query: '{ __typename }' },
    });
    expect(graphql.statusCode).toBe(429);
    // A valid key from the same address is still served (verified once elsewhere, it is known valid even
    // now that the guessing has used up the address's own budget too).
    expect((await stats(apiKey)).statusCode).toBe(200);
    expect((await stats(apiKey, ip)).statusCode).toBe(200);
    // Guessing past the failed-key budget spent the address's budget: keyless calls from it wait too.
    expect((await publicCall(ip)).statusCode).toBe(429);
  });

  it('authenticates and limits on the decoded path the router routes', async () => {
    const { apiKey } = await app.partner(10);
    const answer = await stats(apiKey, randomAddress(), '/%70artners/stats');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toHaveProperty('creditBalance');
    const missing = await stats(undefined, randomAddress(), '/%70artners/stats');
    expect(missing.statusCode).toBe(401);
    // Both spellings draw on the same partner budget (3; one used above).
    expect((await stats(apiKey)).statusCode).toBe(200);
    expect((await stats(apiKey, randomAddress(), '/%70artners/stats')).statusCode).toBe(200);
    expect((await stats(apiKey, randomAddress(), '/%70artners/stats')).statusCode).toBe(429);
  });
});

describe('failed keys from one address shared by many clients (a proxy without TRUST_PROXY)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      { RATE_LIMIT_FAILED_AUTH_MAX: '20', RATE_LIMIT_PUBLIC_MAX: '1000', RATE_LIMIT_PARTNER_MAX: '1000' },
      undefined,
      { subgraphs: withMetered() },
    );
  });
  afterAll(() => app.stop());

  it('20 bad keys lock out further bad keys only: a valid key never seen before is served', async () => {
    const ip = randomAddress();
    const stats = (key: string) =>
      app.http.inject({ method: 'GET', url: '/partners/stats', remoteAddress: ip, headers: { 'x-api-key': key } });
    const statuses = [];
    for (let i = 0; i < 22; i++) statuses.push((await stats(madeUpKey())).statusCode);
    expect(statuses).toEqual([...Array(20).fill(401), 429, 429]);
    const { apiKey } = await app.partner(10);
    expect((await stats(apiKey)).statusCode).toBe(200);
    const graphql = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      payload: { query: '{ stats { creditBalance } }' },
    });
    expect(graphql.statusCode).toBe(200);
    expect((await stats(madeUpKey())).statusCode).toBe(429);
  });
});

describe('failed-key budget: lookups of unknown keys stay bounded', () => {
  const partner: AuthenticatedPartner = { id: 'p1', name: 'P', email: 'p@x', keyId: 'k1', sandbox: false };
  const good = madeUpKey();
  const fresh = madeUpKey();
  const asked: string[] = [];
  let http: FastifyInstance;
  beforeAll(async () => {
    http = Fastify();
    const config = loadConfig({
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      RATE_LIMIT_FAILED_AUTH_MAX: '3',
      RATE_LIMIT_PUBLIC_MAX: '20',
      RATE_LIMIT_PARTNER_MAX: '1000',
    });
    await http.register(rateLimitPlugin, { config });
    await http.register(errorHandlerPlugin);
    await http.register(authPlugin, {
      verify: async (key: string) => {
        asked.push(key);
        return key === good || key === fresh ? partner : null;
      },
      // No 1 s cache: each request of a valid key is looked up, as one that arrives after the cache expired.
      cacheTtlMs: 0,
    });
    http.get('/partners/x', async (request) => ({ partner: request.partner?.id }));
    await http.ready();
  });
  afterAll(() => http.close());

  const call = (key: string, remoteAddress: string) =>
    http.inject({ method: 'GET', url: '/partners/x', remoteAddress, headers: { 'x-api-key': key } });

  it('looks up at most the failed-key budget plus the address budget of unknown keys, and serves known ones', async () => {
    expect((await call(good, randomAddress())).statusCode).toBe(200);
    const ip = randomAddress();
    asked.length = 0;
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) statuses.add((await call(madeUpKey(), ip)).statusCode);
    expect([...statuses].sort()).toEqual([401, 429]);
    expect(asked.length).toBeLessThanOrEqual(3 + 20);
    // The address is past both budgets: a key verified before is still looked up (revocation) and served…
    asked.length = 0;
    expect((await call(good, ip)).statusCode).toBe(200);
    expect(asked).toEqual([good]);
    // …a valid key this process never verified waits for the address's window, like any unknown key.
    expect((await call(fresh, ip)).statusCode).toBe(429);
    expect(asked).toEqual([good]);
  });
});

describe('rate limits behind a trusted proxy (TRUST_PROXY=1)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ...LIMITS, TRUST_PROXY: '1' });
  });
  afterAll(() => app.stop());

  it('takes the client address from X-Forwarded-For', async () => {
    const proxy = randomAddress();
    const call = (client: string) =>
      app.http.inject({
        method: 'GET',
        url: '/api/public/does-not-matter',
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': client },
      });
    // Each client its own bucket behind the one proxy address…
    for (let i = 0; i < 6; i++) expect((await call(randomAddress())).statusCode).toBe(404);
    // …and one client its one bucket.
    const client = randomAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(client)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404, 429]);
  });
});

describe('TRUST_PROXY', () => {
  const load = (value: string) => loadConfig({ TRUST_PROXY: value, SANDBOX_SEED: 'false' }).trustProxy;

  it('is off by default and accepts a hop count or proxy addresses/CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(load('false')).toBe(false);
    expect(load('0')).toBe(false);
    expect(load('2')).toBe(2);
    expect(load('10.0.0.1, 10.1.0.0/16,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('names the variable for a bad value', () => {
    for (const bad of ['true', 'proxy.example.com', '10.0.0.1/33', '10.0.0.300', '99'])
      expect(() => load(bad)).toThrowError(ConfigError);
    expect(() => load('nope')).toThrowError(/TRUST_PROXY/);
    expect(() => loadConfig({ RATE_LIMIT_FAILED_AUTH_MAX: '0' })).toThrowError(/RATE_LIMIT_FAILED_AUTH_MAX/);
  });
});
