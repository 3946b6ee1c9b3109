import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/support/use-app.js';

describe('partner interface errors', () => {
  const app = useTestApp({ BODY_LIMIT_BYTES: '2048' });

  it('401 without a key, in the partner error shape', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/partners/stats' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      statusCode: 401,
      message: 'Missing API key: send it in the x-api-key header',
      error: 'Unauthorized',
    });
  });

  it('401 for a malformed or unknown key', async () => {
    for (const key of ['nope', 'cgk_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', ' ']) {
      const res = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('404 for unknown partner routes, with a key or without', async () => {
    const { apiKey } = await app.partner(1);
    const res = await app.http.inject({
      method: 'GET',
      url: '/partners/nothing-here',
      headers: { 'x-api-key': apiKey },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, message: 'Cannot GET /partners/nothing-here', error: 'Not Found' });
  });

  it('public errors are {message} only', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/api/public/unknown?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Cannot GET /api/public/unknown' });
  });

  it('malformed JSON is a 400, an oversized body a 413, both in the interface shape', async () => {
    const bad = await app.http.inject({
      method: 'POST',
      url: '/api/public/identity/names',
      headers: { 'content-type': 'application/json' },
      payload: '{"addresses": [',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['message']);
    const big = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(4096) }),
    });
    expect(big.statusCode).toBe(413);
  });

  it('carries a request id, echoing a well-formed incoming one', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers['x-request-id']).toBe('trace-abc-123');
    const fresh = await app.http.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('health and readiness', async () => {
    expect((await app.http.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.http.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
