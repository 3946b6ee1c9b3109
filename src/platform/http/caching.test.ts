import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, importNamesFile, NAMES_FILE } from '../../../test/fixtures/mns/index.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { weakEtag } from './caching.js';

describe('weakEtag', () => {
  // The tags the `etag` package (jshttp/etag 1.8.1, weak: true) gives these bodies: ETags stay what
  // clients holding one from before compare against.
  it.each([
    ['{"name":"a"}', 'W/"c-HfnWVlodSNpve4ZgIZVt4IjbMvY"'],
    ['héllo wörld ✓', 'W/"11-pefzXK6lCqbzvDfS8kpUD8CzyzI"'],
    ['', 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"'],
  ])('tags %j as the etag package does', (body, tag) => {
    expect(weakEtag(body)).toBe(tag);
    expect(weakEtag(Buffer.from(body))).toBe(tag);
  });
});

describe('caching and compression', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ HTTP_CACHE_MAX_AGE_SECONDS: '120' });
    expect((await importNamesFile(app.database.url, NAMES_FILE)).code).toBe(0);
  });
  afterAll(() => app.stop());

  const lookup = (headers: Record<string, string> = {}) =>
    app.http.inject({
      method: 'GET',
      url: '/api/public/identity/name',
      query: { address: ALICE, caip2Id: 'move-mvmt:126' },
      headers,
    });
  const balance = async (apiKey: string) =>
    (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json();

  it('answers a repeated public lookup that sends its ETag with a bodiless 304', async () => {
    const first = await lookup();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=120');
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/".+"$/);
    const again = await lookup({ 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(tag);
    // A stale tag gets the whole answer.
    const stale = await lookup({ 'if-none-match': 'W/"0-stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual({ name: 'alice.snow', owner: ALICE });
  });

  it('keeps errors uncached', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/api/public/identity/name?address=0x1&caip2Id=nope' });
    expect(res.statusCode).toBe(400);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('gives paid catalogue answers a private max-age but no ETag, and charges every request it receives', async () => {
    const { apiKey } = await app.partner(10, 'Sandbox Partner', { sandbox: true });
    const get = (headers: Record<string, string> = {}) =>
      app.http.inject({
        method: 'GET',
        url: '/partners/bridge/chains',
        headers: { 'x-api-key': apiKey, ...headers },
      });
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, max-age=120');
    expect(first.headers.vary).toMatch(/x-api-key/);
    expect(first.headers.etag).toBeUndefined();
    // Even a client that invents a validator gets (and pays for) the full answer: a 304 would be free data.
    const again = await get({ 'if-none-match': '*' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(apiKey)).toMatchObject({ creditBalance: 8, creditUsage: 2 });
  });

  it('gzips the token list when asked, and only then', async () => {
    const { apiKey } = await app.partner(10, 'Sandbox Partner', { sandbox: true });
    const get = (encoding?: string) =>
      app.http.inject({
        method: 'GET',
        url: '/partners/bridge/tokens?caip2Id=eip155:1',
        headers: { 'x-api-key': apiKey, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await get('gzip');
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(await balance(apiKey)).toMatchObject({ creditBalance: 8, creditUsage: 2 });
  });

  it('compresses answers that grow with the request, reads gzipped bodies, and leaves fixed small answers alone', async () => {
    // A batch answer is a map keyed by each address as sent: one owner in 48 spellings (the case of its
    // four letters, and with zero to two of its leading zeros), ~150 bytes an entry.
    const digits = ALICE.slice(2).replace(/^0+/, '').toLowerCase();
    const spellings = ['', '0', '00'].flatMap((zeros) =>
      Array.from({ length: 16 }, (_, mask) => {
        let letter = 0;
        const cased = [...digits].map((c) => (/[a-f]/.test(c) && (mask >> letter++) & 1 ? c.toUpperCase() : c));
        return `0x${zeros}${cased.join('')}`;
      }),
    );
    const body = JSON.stringify({ caip2Id: 'move-mvmt:126', addresses: spellings });
    const batch = (headers: Record<string, string>, payload: string | Buffer = body) =>
      app.http.inject({
        method: 'POST',
        url: '/api/public/identity/names',
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });
    const plain = await batch({});
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(plain.json().data)).toHaveLength(48);
    const zipped = await batch({ 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
    // The request body may come gzipped too (a POST keeps its decompression).
    const sentZipped = await batch({ 'content-encoding': 'gzip' }, gzipSync(body));
    expect(sentZipped.json()).toEqual(plain.json());

    // A single lookup is ~150 bytes: the same bytes whatever the client accepts, and no Vary for it.
    const asked = await lookup({ 'accept-encoding': 'gzip' });
    expect(asked.headers['content-encoding']).toBeUndefined();
    expect(String(asked.headers.vary ?? '')).not.toMatch(/accept-encoding/i);
    expect(asked.rawPayload).toEqual((await lookup()).rawPayload);
  });

  it('caches free GraphQL GET answers privately with an ETag, never paid or failed ones', async () => {
    const { apiKey } = await app.partner(10, 'Sandbox Partner', { sandbox: true });
    const get = (query: string, headers: Record<string, string> = {}) =>
      app.http.inject({
        method: 'GET',
        url: '/graphql',
        query: { query },
        // Apollo's CSRF prevention wants a non-simple header on GET.
        headers: { 'x-api-key': apiKey, 'apollo-require-preflight': 'true', ...headers },
      });
    const free = await get('{ bridgeProviders { name enabled } }');
    expect(free.statusCode).toBe(200);
    expect(free.headers['cache-control']).toBe('private, max-age=120');
    const tag = free.headers.etag as string;
    expect(tag).toMatch(/^W\//);
    expect((await get('{ bridgeProviders { name enabled } }', { 'if-none-match': tag })).statusCode).toBe(304);

    const paid = await get('{ bridgeChains { caip2Id } }');
    expect(paid.statusCode).toBe(200);
    expect(paid.headers.etag).toBeUndefined();
    expect(paid.headers['cache-control']).not.toMatch(/max-age=120/);
    const failed = await get('{ bridgeTokens(caip2Id: "eip155:999999") { caip2Id } }');
    expect(failed.headers.etag).toBeUndefined();
    expect(await balance(apiKey)).toMatchObject({ creditBalance: 9, creditUsage: 1 });
  });
});
