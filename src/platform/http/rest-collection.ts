import type { JsonSchema } from './graphql-json-schema.js';
import { isPlainObject, Pieces } from './json-text.js';

/** Entries serialised in one call: 256 entries of a 1000-address batch are ~45 kB of text. */
const SLICE = 256;

/**
 * An answer whose envelope is one required list or map and nothing else (`{"data": {…}}`,
 * `{"chains": […]}`): the shape of the REST answers that grow with the request or the catalogue.
 */
export interface Collection {
  key: string;
  schema: JsonSchema;
  kind: 'list' | 'map';
}

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
  const entries = schema.additionalProperties;
  if (schema.type === 'object' && isSchema(entries) && !Object.keys(schema.properties ?? {}).length)
    return schema.patternProperties === undefined ? { key, schema, kind: 'map' } : undefined;
}

/**
 * The answer's text as the route's own serialiser writes it, built slice by slice: `serialize` (the
 * collection's compiled serialiser) writes SLICE entries at a time, and the slices are joined without
 * their brackets. Undefined for an answer of at most SLICE entries, which is serialised whole as usual.
 *
 * Why: the route's serialiser builds the whole answer as one concatenated string, and encoding it makes a
 * flat copy, over 128 KiB for a 1000-address batch: a fresh memory mapping in V8's large-object space,
 * which cost ~0.8 ms a request on the bench machine (see jsonText). Here no string is larger than a
 * slice's, and the text is encoded once into a buffer.
 */
export function collectionText(
  body: Record<string, unknown>,
  collection: Collection,
  /** Fastify's `reply.compileSerializationSchema(collection.schema)`, typed as Fastify types it. */
  serialize: (value: Record<string, unknown>) => string,
): string | Buffer | undefined {
  const value = body[collection.key];
  const pieces = new Pieces();
  let first = true;
  const slice = (text: string) => {
    // A slice's text without its brackets; a map slice whose entries are all left out is empty.
    const inner = text.slice(1, -1);
    if (!inner) return;
    pieces.put(first ? inner : `,${inner}`);
    first = false;
  };
  if (collection.kind === 'list') {
    if (!Array.isArray(value) || value.length <= SLICE) return;
    pieces.put(`{${JSON.stringify(collection.key)}:[`);
    for (let i = 0; i < value.length; i += SLICE) slice(serialize(value.slice(i, i + SLICE) as never));
    pieces.put(']}');
  } else {
    if (!isPlainObject(value)) return;
    const keys = Object.keys(value);
    if (keys.length <= SLICE) return;
    pieces.put(`{${JSON.stringify(collection.key)}:{`);
    for (let i = 0; i < keys.length; i += SLICE) {
      // Without a prototype, so that a key such as `__proto__` stays an entry.
      const part: Record<string, unknown> = Object.create(null);
      for (const key of keys.slice(i, i + SLICE)) part[key] = value[key];
      slice(serialize(part));
    }
    pieces.put('}}');
  }
  return pieces.end();
}
