import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { ConfigError, loadConfig } from '../config.js';

const APP = 'https://app.example.com';

describe('CORS', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: `${APP}, http://localhost:5173` });
  });
  afterAll(() => app.stop());

  const preflight = (url: string, origin: string, headers = 'content-type, x-api-key') =>
    app.http.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
    });

  it("answers a /graphql preflight before Apollo's CSRF check, for a listed origin only", async () => {
    const ok = await preflight('/graphql', APP);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(ok.headers['access-control-allow-headers']).toBe('content-type, x-api-key');
    expect(ok.headers['access-control-max-age']).toBe('600');
    const other = await preflight('/graphql', 'https://evil.example');
    expect(other.statusCode).toBe(204);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers partner preflights without a key (a browser never sends one) and spends no credits', async () => {
    const res = await preflight('/partners/bridge/chains', 'http://localhost:5173');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('lets any origin read public lookups, their errors included, with the request id exposed', async () => {
    const pre = await preflight('/api/public/identity/name', 'https://anyone.example');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    const res = await app.http.inject({
      method: 'GET',
      url: '/api/public/identity/name?address=0x1&caip2Id=nope',
      headers: { origin: 'https://anyone.example' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toMatch(/x-request-id/);
  });

  it('lets any origin query /graphql without a key, and only listed origins with one', async () => {
    const keyless = await preflight('/graphql', 'https://anyone.example', 'content-type');
    expect([keyless.statusCode, keyless.headers['access-control-allow-origin']]).toEqual([204, '*']);
    const query = (headers: Record<string, string>) =>
      app.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...headers },
        payload: { query: '{ __typename }' },
      });
    const anyone = await query({ origin: 'https://anyone.example' });
    expect([anyone.statusCode, anyone.headers['access-control-allow-origin']]).toEqual([200, '*']);
    const { apiKey } = await app.partner(1);
    const unlisted = await query({ origin: 'https://evil.example', 'x-api-key': apiKey });
    expect(unlisted.headers['access-control-allow-origin']).toBeUndefined();
    const listed = await query({ origin: APP, 'x-api-key': apiKey });
    expect(listed.headers['access-control-allow-origin']).toBe(APP);
  });

  it('allows in a preflight every method the path serves, and exposes every header a script reads', async () => {
    const hook = await app.http.inject({
      method: 'OPTIONS',
      url: '/partners/webhooks/00000000-0000-4000-8000-000000000000',
      headers: {
        origin: APP,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(hook.statusCode).toBe(204);
    expect(hook.headers['access-control-allow-methods']).toMatch(/DELETE/);
    const hooks = await app.http.inject({
      method: 'OPTIONS',
      url: '/partners/webhooks',
      headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' },
    });
    expect(String(hooks.headers['access-control-allow-methods']).split(',').sort()).toEqual(['GET', 'HEAD', 'POST']);
    const res = await app.http.inject({ method: 'GET', url: '/api/public/identity/name', headers: { origin: APP } });
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    for (const name of [
      'x-request-id',
      'x-credits-charged',
      'x-credits-remaining',
      'idempotent-replayed',
      'retry-after',
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it('marks answers on an authenticated failure readable by a listed origin', async () => {
    const res = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { origin: APP, 'x-api-key': 'nope' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
  });
});

describe('CORS by default (no CORS_ORIGINS)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it('serves keyless GraphQL to any origin and keyed calls to none', async () => {
    const headers = { origin: 'https://frontend.example', 'content-type': 'application/json' };
    const payload = { query: '{ __typename }' };
    const keyless = await app.http.inject({ method: 'POST', url: '/graphql', headers, payload });
    expect([keyless.statusCode, keyless.headers['access-control-allow-origin']]).toEqual([200, '*']);
    const { apiKey } = await app.partner(1);
    const keyed = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...headers, 'x-api-key': apiKey },
      payload,
    });
    expect(keyed.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS', () => {
  it('is empty by default (no browser origin may call partner paths or /graphql)', () => {
    expect(loadConfig({}).http.corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).http.corsOrigins).toEqual(['*']);
  });

  it('refuses anything but exact origins, naming the variable', () => {
    for (const bad of ['app.example.com', 'https://app.example.com/', 'ftp://x.example', 'https://a.example/path']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
    expect(() => loadConfig({ HTTP_CACHE_MAX_AGE_SECONDS: '-1' })).toThrow(/HTTP_CACHE_MAX_AGE_SECONDS/);
  });
});
