import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './graphql-json-schema.js';
import { collectionOf, collectionText } from './rest-collection.js';

const entry: JsonSchema = {
  type: 'object',
  required: ['name', 'owner'],
  properties: { name: { type: 'string' }, owner: { type: 'string' }, expireAt: { type: ['string', 'null'] } },
};
// The 1000-address batch's answer (public-identity-names.ts) and a catalogue list.
const mapSchema: JsonSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', additionalProperties: entry } },
};
const listSchema: JsonSchema = {
  type: 'object',
  required: ['chains'],
  properties: { chains: { type: 'array', items: entry } },
};

let seed = 11;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const text = () =>
  Array.from({ length: Math.floor(random() * 10) }, () => pick(['a', 'é', '😀', '"', '\\', '\n', '\ud800', '0'])).join(
    '',
  );
const anEntry = () => ({
  name: text(),
  owner: pick([text(), 42, null]),
  ...(random() < 0.5 ? { expireAt: pick([null, text()]) } : {}),
  notInSchema: text(),
});

/**
 * The body as the route's own serialiser writes it (whole) and as collectionText writes it; `given` is
 * the body handed to collectionText when it differs (a Map for the map).
 */
async function bothWays(
  schema: JsonSchema,
  body: Record<string, unknown>,
  given = body,
): Promise<[Buffer, Buffer, string]> {
  const collection = collectionOf(schema);
  if (!collection) throw new Error('not a collection');
  const app = Fastify();
  let form = 'whole';
  app.get('/whole', { schema: { response: { 200: schema } } }, async () => body);
  app.get('/sliced', { schema: { response: { 200: schema } } }, async (_request, reply) => {
    const out = collectionText(given, collection, (s) => reply.compileSerializationSchema(s, '200'));
    if (out === undefined) return given;
    form = Buffer.isBuffer(out) ? 'sliced bytes' : 'sliced string';
    reply.type('application/json; charset=utf-8');
    return out;
  });
  const whole = await app.inject({ method: 'GET', url: '/whole' });
  const sliced = await app.inject({ method: 'GET', url: '/sliced' });
  await app.close();
  expect(sliced.headers['content-type']).toBe(whole.headers['content-type']);
  return [whole.rawPayload, sliced.rawPayload, form];
}

describe('collectionOf', () => {
  it('finds an envelope of one required list or map, and nothing else', () => {
    expect(collectionOf(mapSchema)).toMatchObject({ key: 'data', kind: 'map', entry });
    expect(collectionOf(listSchema)).toMatchObject({ key: 'chains', kind: 'list' });
    expect(collectionOf({ ...mapSchema, required: [] })).toBeUndefined();
    expect(collectionOf({ ...listSchema, properties: { ...listSchema.properties, total: { type: 'integer' } } })).toBe(
      undefined,
    );
    expect(collectionOf({ ...mapSchema, additionalProperties: false })).toBeUndefined();
    expect(collectionOf(entry)).toBeUndefined();
    expect(
      collectionOf({
        type: 'object',
        required: ['data'],
        properties: { data: { ...entry, additionalProperties: entry } },
      }),
    ).toBeUndefined();
  });
});

describe('collectionText', () => {
  it('writes the bytes the whole serialiser writes, for maps and lists of every size', async () => {
    for (const size of [0, 1, 256, 257, 600, 1000, 2500]) {
      const map: Record<string, unknown> = {};
      for (let i = 0; i < size; i++) map[`${text()}${i}`] = random() < 0.05 ? pick([undefined, null]) : anEntry();
      const [whole, sliced, form] = await bothWays(mapSchema, { data: map, extra: 1 });
      expect(sliced.equals(whole)).toBe(true);
      // A map is always written entry by entry (Fastify cannot serialise a Map); as bytes past one piece.
      expect(form).toEqual(
        size <= 1 ? 'sliced string' : size === 2500 ? 'sliced bytes' : expect.stringMatching(/^sliced/),
      );
      const [, fromMap] = await bothWays(mapSchema, { data: map }, { data: new Map(Object.entries(map)) });
      expect(fromMap.equals(whole)).toBe(true);

      const list = Array.from({ length: size }, () => (random() < 0.05 ? null : anEntry()));
      const [wholeList, slicedList, listForm] = await bothWays(listSchema, { chains: list });
      expect(slicedList.equals(wholeList)).toBe(true);
      expect(listForm).toBe(size <= 256 ? 'whole' : size === 257 ? 'sliced string' : 'sliced bytes');
    }
  });

  it('keeps an entry named __proto__ and leaves out a map whose every entry is undefined', async () => {
    const map = JSON.parse('{"__proto__": {"name": "p", "owner": "o"}}') as Record<string, unknown>;
    for (let i = 0; i < 300; i++) map[`k${i}`] = i < 280 ? undefined : anEntry();
    const [whole, sliced, form] = await bothWays(mapSchema, { data: map });
    expect(form).toBe('sliced string');
    expect(sliced.toString()).toBe(whole.toString());
    expect(Object.keys((JSON.parse(sliced.toString()) as { data: object }).data)).toContain('__proto__');
    const none: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) none[`k${i}`] = undefined;
    const [wholeNone, slicedNone] = await bothWays(mapSchema, { data: none }, { data: new Map(Object.entries(none)) });
    expect(slicedNone.toString()).toBe('{"data":{}}');
    expect(slicedNone.toString()).toBe(wholeNone.toString());
  });
});
