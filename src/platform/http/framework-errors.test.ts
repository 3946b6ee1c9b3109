import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';

/** Errors Fastify raises itself (router, body parser) answer in the interface's shape with a request id. */
let app: TestApp;
let apiKey: string;

beforeAll(async () => {
  app = await startTestApp({ BODY_LIMIT_BYTES: '2048' });
  ({ apiKey } = await app.partner(10));
});
afterAll(async () => {
  await app?.stop();
});

// Rate-limit counters may live in a Redis shared with other test files: an address of our own keeps
// their buckets and ours apart.
const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1`;
const send = (request: InjectOptions) => app.http.inject({ remoteAddress, ...request });

function expectShape(res: LightMyRequestResponse, surface: 'partner' | 'public' | 'graphql', status: number) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  if (surface === 'public') expect(Object.keys(body)).toEqual(['message']);
  if (surface === 'partner')
    expect(body).toEqual({ statusCode: status, message: expect.any(String), error: expect.any(String) });
  if (surface === 'graphql')
    expect(body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: expect.any(String) } }] });
  expect(res.body).not.toMatch(/FST_ERR|\bat .+:\d+:\d+|node_modules/);
  return body;
}

describe('router errors', () => {
  it('answers bad percent-encoding in the public shape', async () => {
    const res = await send({ method: 'GET', url: '/api/public/identity/metadata/%zz' });
    expect(expectShape(res, 'public', 400).message).toMatch(/percent-encoding/);
  });

  it('answers bad percent-encoding in the partner shape, with and without a key', async () => {
    expectShape(await send({ method: 'GET', url: '/partners/%zz' }), 'partner', 400);
    expectShape(await send({ method: 'GET', url: '/partners/%zz', headers: { 'x-api-key': apiKey } }), 'partner', 400);
  });

  it('keeps the interface of a path whose escape is malformed further on', async () => {
    expectShape(await send({ method: 'GET', url: '/api/%70ublic/identity/metadata/%zz' }), 'public', 400);
  });

  it('lets the schema, not the router, judge a metadata name up to the schema limit', async () => {
    for (const name of ['a'.repeat(101), 'b'.repeat(255), '😀'.repeat(255)]) {
      const res = await send({ method: 'GET', url: `/api/public/identity/metadata/${encodeURIComponent(name)}` });
      expect(res.statusCode, res.body).not.toBe(414);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    expect(
      expectShape(await send({ method: 'GET', url: `/api/public/identity/metadata/${'c'.repeat(256)}` }), 'public', 400)
        .message,
    ).toMatch(/name/);
  });

  it('answers a parameter beyond what any name can be with a 414 in the public shape', async () => {
    const res = await send({ method: 'GET', url: `/api/public/identity/metadata/${'d'.repeat(5000)}` });
    expectShape(res, 'public', 414);
  });

  it('keeps a well-formed incoming request id on a router error', async () => {
    const res = await send({ method: 'GET', url: '/partners/%zz', headers: { 'x-request-id': 'trace-42' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toBe('trace-42');
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 per interface', async () => {
    expectShape(await send({ method: 'GET', url: '/api/public/nothing' }), 'public', 404);
    expectShape(
      await send({ method: 'GET', url: '/partners/nothing', headers: { 'x-api-key': apiKey } }),
      'partner',
      404,
    );
    expectShape(await send({ method: 'GET', url: '/nothing' }), 'partner', 404);
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    let res = await send({ method: 'DELETE', url: '/api/public/identity/address?name=a&caip2Id=move-mvmt:126' });
    expectShape(res, 'public', 405);
    expect(res.headers.allow).toBe('GET, HEAD');
    res = await send({ method: 'GET', url: '/api/public/identity/names' });
    expectShape(res, 'public', 405);
    expect(res.headers.allow).toBe('POST');
    res = await send({ method: 'POST', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expectShape(res, 'partner', 405);
    expect(res.headers.allow).toMatch(/^GET\b/);
    res = await send({ method: 'PUT', url: '/graphql', payload: { query: '{ __typename }' } });
    expectShape(res, 'graphql', 405);
    expect(res.headers.allow?.toString().split(', ').sort()).toEqual(['GET', 'OPTIONS', 'POST']);
  });

  it('chooses the interface on the decoded path', async () => {
    const res = await send({ method: 'GET', url: '/api/%70ublic/identity/address' });
    expect(expectShape(res, 'public', 400).message).toMatch(/name|caip2Id/);
    expectShape(
      await send({ method: 'GET', url: '/%70artners/nothing', headers: { 'x-api-key': apiKey } }),
      'partner',
      404,
    );
  });
});

describe('body errors', () => {
  const names = (payload: string, contentType = 'application/json'): InjectOptions => ({
    method: 'POST',
    url: '/api/public/identity/names',
    headers: { 'content-type': contentType },
    payload,
  });

  it('answers malformed JSON with a 400 per interface', async () => {
    expectShape(await send(names('{"addresses": [')), 'public', 400);
    const gql = await send({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: '{"query": ',
    });
    expectShape(gql, 'graphql', 400);
  });

  it('answers an unsupported content type with a 415', async () => {
    expectShape(await send(names('addresses=0x1', 'application/x-www-form-urlencoded')), 'public', 415);
    expectShape(await send(names('<a/>', 'application/xml')), 'public', 415);
    expectShape(await send(names('hello', 'text/plain')), 'public', 415);
    expectShape(await send(names('hello', 'text/plain; charset=utf-8')), 'public', 415);
    const partner = await send({
      method: 'POST',
      url: '/partners/webhooks',
      headers: { 'content-type': 'text/plain', 'x-api-key': apiKey },
      payload: '{"url": "https://example.com/hook"}',
    });
    expectShape(partner, 'partner', 415);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/graphql']) {
      const gql = await send({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': contentType },
        payload: '{ namingProviders { provider } }',
      });
      expect(expectShape(gql, 'graphql', 415).errors).toEqual([
        { message: expect.stringContaining('Unsupported Media Type'), extensions: { code: 'BAD_REQUEST' } },
      ]);
    }
  });

  it('answers a body over BODY_LIMIT_BYTES with a 413', async () => {
    const big = JSON.stringify({ caip2Id: 'move-mvmt:126', addresses: Array(400).fill('0x1') });
    expectShape(await send(names(big)), 'public', 413);
    const gql = await send({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `{ ${'__typename '.repeat(300)}}` }),
    });
    expectShape(gql, 'graphql', 413);
  });
});
