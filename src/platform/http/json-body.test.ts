import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody } from './json-body.js';

/** An app echoing the parsed body, with Fastify's own JSON parser or with jsonBody. */
async function echo(withJsonBody: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  if (withJsonBody) jsonBody(app);
  app.post('/', async (request) => ({ body: request.body }));
  await app.ready();
  return app;
}

const BODIES: [label: string, body: string][] = [
  ['an object', '{"addresses": ["0x1", "0x2"], "caip2Id": "move-mvmt:126"}'],
  ['a GraphQL request', '{"query": "{ stats { creditBalance } }", "variables": {"a": [1, 2.5, true, null]}}'],
  ['a scalar', '42'],
  ['a list', '[{"a": 1}]'],
  ['a __proto__ key', '{"a": 1, "__proto__": {"polluted": true}}'],
  ['a nested __proto__ key', '{"a": [{"b": {"__proto__": {"polluted": true}}}]}'],
  ['an escaped __proto__ key', '{"\\u005f_proto__": {"polluted": true}}'],
  ['an escaped __proto__ key, upper-case', '{"_\\u005F\\u0070roto__": {"polluted": true}}'],
  ['a constructor.prototype key', '{"constructor": {"prototype": {"polluted": true}}}'],
  ['an escaped constructor key', '{"\\u0063onstructor": {"prototype": {"polluted": true}}}'],
  ['a constructor key without a prototype', '{"constructor": {"name": "x"}}'],
  ['"__proto__" and "constructor" as values', '{"a": "__proto__", "b": ["constructor"]}'],
  ['an escaped quote', '{"a": "say \\"hi\\""}'],
  ['a query with line breaks', '{"query": "query {\\n  stats { creditBalance }\\n}"}'],
  ['a __proto__ key beside line breaks', '{"query": "{\\n}", "variables": {"__proto__": {"polluted": true}}}'],
  ['an escaped __proto__ key beside line breaks', '{"query": "{\\n}", "\\u005f_proto__": {"polluted": true}}'],
  ['an escaped backslash before a u', '{"a": "\\\\u005f_proto__"}'],
  ['a byte-order mark', '\uFEFF{"a": 1}'],
  ['an empty body', ''],
  ['spaces only', '   '],
  ['bad JSON', '{"addresses": ['],
  ['trailing garbage', '{"a": 1} x'],
];

describe('jsonBody', () => {
  let standard: FastifyInstance;
  let ours: FastifyInstance;
  beforeAll(async () => {
    [standard, ours] = await Promise.all([echo(false), echo(true)]);
  });
  afterAll(async () => {
    await Promise.all([standard.close(), ours.close()]);
  });

  it.each(BODIES)('answers %s as Fastify’s own JSON parser does', async (_label, payload) => {
    const request = { method: 'POST' as const, url: '/', payload, headers: { 'content-type': 'application/json' } };
    const [expected, actual] = await Promise.all([standard.inject(request), ours.inject(request)]);
    expect(actual.statusCode).toBe(expected.statusCode);
    expect(actual.json()).toEqual(expected.json());
  });

  it('refuses what secure-json-parse refuses, with the same 400', async () => {
    const forbidden = BODIES.filter(([label]) =>
      /(__proto__|constructor\.prototype|constructor) key( beside line breaks)?$/.test(label),
    );
    expect(forbidden.length).toBeGreaterThanOrEqual(7);
    for (const [label, payload] of forbidden) {
      const res = await ours.inject({
        method: 'POST',
        url: '/',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, label).toBe(400);
      expect(res.json().code, label).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    }
  });

  it('parses a large plain body as JSON.parse does', async () => {
    const body = { addresses: Array.from({ length: 1000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`) };
    const res = await ours.inject({ method: 'POST', url: '/', payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual(body);
  });
});
