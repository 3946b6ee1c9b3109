import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance, type HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { restRoutes, subgraphs } from '../../../test/support/features.js';
import { buildSupergraph } from '../gateway/supergraph.js';
import { creditsOf, openapiPlugin } from './openapi.js';

interface Operation {
  'x-credits': number;
  operationId?: string;
  security?: { apiKey: string[] }[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
}
type Document = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

/** Fastify's `/a/:b` is OpenAPI's `/a/{b}`. */
const pathOf = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('GET /openapi.json', () => {
  let app: TestApp;
  let doc: Document;
  beforeAll(async () => {
    app = await startTestApp();
    const res = await app.http.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => app.stop());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every REST route, with its price, parameters, answers and errors, and nothing else', async () => {
    const prices = (await buildSupergraph(subgraphs)).prices;
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(restRoutes.map((r) => `${r.method} ${pathOf(r.url)}`).sort());
    for (const route of restRoutes) {
      const op = doc.paths[pathOf(route.url)]?.[route.method.toLowerCase()] as Operation;
      expect(op['x-credits'], route.url).toBe(creditsOf(route.operation, prices));
      expect(Object.keys(op.responses), route.url).toEqual(expect.arrayContaining(['200', '4XX', '5XX']));
      const partner = route.url.startsWith('/partners');
      expect(op.security, route.url).toEqual(partner ? [{ apiKey: [] }] : undefined);
      const error = op.responses['4XX']?.content?.['application/json']?.schema as { properties: object };
      expect(Object.keys(error.properties).sort(), route.url).toEqual(
        partner ? ['error', 'message', 'statusCode'] : ['message'],
      );
    }
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    const parameters = (path: string) =>
      (doc.paths[path]?.get?.parameters ?? []).map((p) => `${p.in}:${p.name}${p.required ? '!' : ''}`).sort();
    expect(parameters('/api/public/identity/name')).toEqual(['query:address!', 'query:caip2Id!']);
    expect(parameters('/api/public/identity/metadata/{name}')).toEqual(expect.arrayContaining(['path:name!']));
    expect(parameters('/partners/bridge/quote')).toEqual(
      expect.arrayContaining(['query:fromChain!', 'query:toChain!', 'query:fromAmount!', 'query:fromAddress!']),
    );
    expect(parameters('/partners/bridge/chains')).toEqual([]);
    // Prices really differ per operation: the quote costs 2, public lookups nothing.
    expect(doc.paths['/partners/bridge/quote']?.get?.['x-credits']).toBe(2);
    expect(doc.paths['/partners/bridge/quote']?.get?.['x-credits']).toBe(2);
    expect(doc.paths['/api/public/identity/name']?.get?.['x-credits']).toBe(0);
  });

  it('gives a code generator what it needs: operation ids, a server, answer headers, 304 and required error fields', () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
    const ids = operations.map((op) => op.operationId);
    expect(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      ids.join(),
    ).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/partners/cip/identity/search']?.get?.operationId).toBe('identitySearch');
    expect(doc.paths['/api/public/identity/name']?.get?.operationId).toBe('publicIdentityName');
    expect(doc.servers).toEqual([{ url: '/', description: 'This server' }]);
    const search = doc.paths['/partners/cip/identity/search']?.get as Operation;
    expect(Object.keys(search.responses['200']?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'x-credits-charged',
        'x-credits-remaining',
        'x-request-id',
        'ratelimit',
        'ratelimit-policy',
      ]),
    );
    expect(Object.keys(search.responses['429']?.headers ?? {})).toContain('retry-after');
    // A paid answer is never a 304 (that would be its data, confirmed, for free); a free GET may be.
    expect(search.responses['304']).toBeUndefined();
    expect(doc.paths['/api/public/identity/name']?.get?.responses['304']).toBeDefined();
    const error = search.responses['4XX']?.content?.['application/json']?.schema as { required?: string[] };
    expect(error.required?.sort()).toEqual(['error', 'message', 'statusCode']);
  });

  it('is also served as a Postman collection: one request per operation, keyed ones sending {{apiKey}}', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/openapi.postman.json' });
    expect(res.statusCode).toBe(200);
    type Item = {
      name: string;
      request: {
        method: string;
        header: { key: string; value: string }[];
        url: { raw: string; path: string[]; query?: { key: string; value: string; disabled: boolean }[] };
        body?: { raw: string };
      };
    };
    const collection = res.json() as {
      info: { schema: string };
      variable: { key: string }[];
      item: { name: string; item: Item[] }[];
    };
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.variable.map((v) => v.key)).toEqual(['baseUrl', 'apiKey']);
    const items = collection.item.flatMap((folder) => folder.item);
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map(
        (method) =>
          `${method.toUpperCase()} /${path
            .split('/')
            .filter(Boolean)
            .map((s) => s.replace(/^\{(.+)\}$/, ':$1'))
            .join('/')}`,
      ),
    );
    expect(items.map((i) => `${i.request.method} /${i.request.url.path.join('/')}`).sort()).toEqual(operations.sort());
    const search = items.find((i) => i.request.url.path.join('/') === 'partners/cip/identity/search');
    expect(search?.request.header).toContainEqual({ key: 'x-api-key', value: '{{apiKey}}' });
    expect(search?.request.url.query?.find((q) => q.key === 'query')?.disabled).toBe(false);
    expect(search?.request.url.query?.find((q) => q.key === 'perPage')).toMatchObject({ value: '10', disabled: true });
    const register = items.find(
      (i) => i.request.method === 'POST' && i.request.url.path.join('/') === 'partners/webhooks',
    );
    expect(JSON.parse(register?.request.body?.raw ?? 'null')).toEqual({ url: '' });
    const lookup = items.find((i) => i.request.url.path.join('/') === 'api/public/identity/address');
    expect(lookup?.request.header.find((h) => h.key === 'x-api-key')).toBeUndefined();
  });
});

/**
 * `/docs` loads Swagger UI at its first request and forwards to it: the application must declare the
 * paths and methods Swagger UI declares, and answer as it answers, whatever version is installed.
 */
describe('/docs, loaded at its first request', () => {
  let reference: FastifyInstance;
  let lazy: FastifyInstance;
  beforeAll(async () => {
    reference = Fastify();
    await reference.register(swagger, { openapi: { openapi: '3.1.0' } });
    await reference.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { deepLinking: true, tryItOutEnabled: false },
    });
    lazy = Fastify();
    await lazy.register(openapiPlugin, { operations: [], prices: new Map() });
    await Promise.all([reference.ready(), lazy.ready()]);
  });
  afterAll(async () => {
    await Promise.all([reference.close(), lazy.close()]);
  });

  it('declares the paths and methods Swagger UI declares', () => {
    const routes = (app: FastifyInstance) =>
      app
        .printRoutes({ commonPrefix: false })
        .replace(/.*openapi\.(postman\.)?json.*\n/g, '')
        .replace(/[ ─└├│]+/g, ' ');
    expect(routes(lazy)).toBe(routes(reference));
  });

  it('answers as Swagger UI answers, files, pages, redirects and refusals alike', async () => {
    const paths = [
      '/docs',
      '/docs/',
      '/docs/static/index.html',
      '/docs/static/swagger-initializer.js',
      '/docs/static/swagger-ui.css',
      '/docs/static/logo.svg',
      '/docs/static/nope.js',
      '/docs/static/..%2fpackage.json',
      '/docs/static/swagger-ui.css?v=1',
    ];
    const answer = async (app: FastifyInstance, method: HTTPMethods, url: string) => {
      const res = await app.inject({ method, url });
      const { date: _d, connection: _c, ...headers } = res.headers;
      return { status: res.statusCode, headers, body: res.body };
    };
    for (const url of paths) {
      for (const method of ['GET', 'HEAD'] as const) {
        expect(await answer(lazy, method, url), `${method} ${url}`).toEqual(await answer(reference, method, url));
      }
    }
    // The document itself differs (the reference has no transform); both are served as JSON and YAML.
    for (const url of ['/docs/json', '/docs/yaml']) {
      const [mine, theirs] = await Promise.all([answer(lazy, 'GET', url), answer(reference, 'GET', url)]);
      expect([mine.status, mine.headers['content-type']]).toEqual([theirs.status, theirs.headers['content-type']]);
    }
  });
});
