import type { JsonSchema } from './graphql-json-schema.js';
import { isPlainObject, Pieces } from './json-text.js';

/** List items serialised in one call: 256 of a 1000-item list of names are ~45 kB of text. */
const SLICE = 256;

/**
 * An answer whose envelope is one required list or map and nothing else (`{"data": {…}}`,
 * `{"chains": […]}`): the shape of the REST answers that grow with the request or the catalogue.
 */
export type Collection =
  | { key: string; kind: 'list'; schema: JsonSchema }
  /** `entry`: the schema of every entry of the map (its `additionalProperties`). */
  | { key: string; kind: 'map'; schema: JsonSchema; entry: JsonSchema };

/** A route's serialiser for a schema: Fastify's `reply.compileSerializationSchema(schema, '200')`. */
export type Compile = (schema: JsonSchema) => (value: never) => string;

const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The route's collection, when its answer schema is such an envelope. */
export function collectionOf(response: JsonSchema): Collection | undefined {
  const keys = Object.keys(response.properties ?? {});
  if (response.type !== 'object' || keys.length !== 1 || response.additionalProperties !== undefined) return;
  if (response.patternProperties !== undefined) return;
  const key = keys[0] as string;
  const schema = response.properties?.[key];
  if (!schema || !response.required?.includes(key)) return;
  if (schema.type === 'array' && isSchema(schema.items)) return { key, schema, kind: 'list' };
  const entry = schema.additionalProperties;
  if (schema.type === 'object' && isSchema(entry) && !Object.keys(schema.properties ?? {}).length)
    return schema.patternProperties === undefined ? { key, schema, kind: 'map', entry } : undefined;
}

/**
 * The answer's text as the route's own serialiser writes it, never as one large string.
 *
 * - A list of more than SLICE items is written SLICE items at a time by the list's compiled serialiser,
 *   and the slices are joined without their brackets. A shorter list is left to Fastify (undefined).
 * - A map, given as a `Map` or a plain object, is written entry by entry: each key by `JSON.stringify`,
 *   each value by the entry's compiled serialiser, an undefined value left out, as the map's serialiser
 *   does. A `Map` lets a route build a large map without making an object of it: a 1000-key object is a
 *   dictionary, and building it, then slicing it into smaller ones for the serialiser, is a costly part of
 *   a large batch, GC included (see public-identity-names.ts).
 *
 * Why: as jsonText, a large batch is answered faster in small pieces encoded once into a buffer than as
 * the one concatenated string the route's serialiser would build.
 */
export function collectionText(
  body: Record<string, unknown>,
  collection: Collection,
  compile: Compile,
): string | Buffer | undefined {
  const value = body[collection.key];
  const pieces = new Pieces();
  if (collection.kind === 'list') {
    if (!Array.isArray(value) || value.length <= SLICE) return;
    const serialize = compile(collection.schema);
    pieces.put(`{${JSON.stringify(collection.key)}:[`);
    let first = true;
    for (let i = 0; i < value.length; i += SLICE) {
      const inner = serialize(value.slice(i, i + SLICE) as never).slice(1, -1);
      pieces.put(first ? inner : `,${inner}`);
      first = false;
    }
    pieces.put(']}');
    return pieces.end();
  }
  const map = value instanceof Map ? (value as Map<string, unknown>) : isPlainObject(value) ? value : undefined;
  if (!map) return;
  const serialize = compile(collection.entry);
  pieces.put(`{${JSON.stringify(collection.key)}:{`);
  let first = true;
  const put = (key: string, entry: unknown) => {
    if (entry === undefined) return;
    pieces.put(`${first ? '' : ','}${JSON.stringify(key)}:${serialize(entry as never)}`);
    first = false;
  };
  if (map instanceof Map) for (const [key, entry] of map) put(key, entry);
  else for (const key of Object.keys(map)) put(key, map[key]);
  pieces.put('}}');
  return pieces.end();
}
