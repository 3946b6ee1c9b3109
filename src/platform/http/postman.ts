/**
 * A Postman Collection (v2.1, which Insomnia and Bruno import too) made from the OpenAPI document, so the
 * two never disagree: one request per operation, grouped by tag, with `{{baseUrl}}` and `{{apiKey}}`
 * variables, required parameters filled with their example or default and optional ones present but off.
 */

interface Schema {
  type?: string | string[];
  default?: unknown;
  examples?: unknown[];
  enum?: unknown[];
  minimum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  example?: unknown;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A value for a schema: its example, default or first allowed value, else an empty one of its type. */
function sample(schema: Schema | undefined, example?: unknown): unknown {
  if (example !== undefined) return example;
  if (!schema) return '';
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') {
    const out: Record<string, unknown> = {};
    for (const name of schema.required ?? []) out[name] = sample(schema.properties?.[name]);
    return out;
  }
  if (type === 'array') return [sample(schema.items)];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  return '';
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function postmanCollection(doc: OpenApiDocument) {
  const folders = new Map<string, unknown[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = operations[method];
      if (!op) continue;
      const parameters = op.parameters ?? [];
      const query = parameters
        .filter((p) => p.in === 'query')
        .map((p) => ({
          key: p.name,
          value: text(sample(p.schema, p.example)),
          description: p.description,
          disabled: !p.required,
        }));
      const segments = path
        .split('/')
        .filter(Boolean)
        .map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
      const variables = parameters
        .filter((p) => p.in === 'path')
        .map((p) => ({ key: p.name, value: text(sample(p.schema, p.example)), description: p.description }));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const header = [
        ...(op.security?.length ? [{ key: 'x-api-key', value: '{{apiKey}}' }] : []),
        ...(bodySchema ? [{ key: 'content-type', value: 'application/json' }] : []),
      ];
      const rawQuery = query.filter((q) => !q.disabled).map((q) => `${q.key}=${encodeURIComponent(q.value)}`);
      const item = {
        name: op.summary ?? op.operationId ?? `${method.toUpperCase()} ${path}`,
        request: {
          method: method.toUpperCase(),
          header,
          url: {
            raw: `{{baseUrl}}/${segments.join('/')}${rawQuery.length ? `?${rawQuery.join('&')}` : ''}`,
            host: ['{{baseUrl}}'],
            path: segments,
            ...(query.length ? { query } : {}),
            ...(variables.length ? { variable: variables } : {}),
          },
          ...(bodySchema
            ? {
                body: {
                  mode: 'raw',
                  raw: JSON.stringify(sample(bodySchema), null, 2),
                  options: { raw: { language: 'json' } },
                },
              }
            : {}),
          description: op.description,
        },
      };
      const tag = op.tags?.[0] ?? 'other';
      folders.set(tag, [...(folders.get(tag) ?? []), item]);
    }
  }
  return {
    info: {
      name: `${doc.info.title} ${doc.info.version}`,
      description: doc.info.description,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [
      { key: 'baseUrl', value: 'http://localhost:4000' },
      { key: 'apiKey', value: '' },
    ],
    item: [...folders].map(([name, item]) => ({ name, item })),
  };
}
