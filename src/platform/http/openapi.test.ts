import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { restRoutes, subgraphs } from '../../../test/support/features.js';
import { buildSupergraph } from '../gateway/supergraph.js';
import { creditsOf } from './openapi.js';

interface Operation {
  'x-credits': number;
  security?: { apiKey: string[] }[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
type Document = {
  openapi: string;
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
    expect(doc.paths['/api/public/identity/name']?.get?.['x-credits']).toBe(0);
  });
});
