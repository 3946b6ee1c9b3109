import Fastify from 'fastify';
import { buildSchema, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { dataSchema, inputSchema, schemaAt } from './graphql-json-schema.js';

const api = buildSchema(/* GraphQL */ `
  scalar DateTime
  scalar URL
  scalar SafeInt
  scalar Mystery
  enum Color { RED GREEN }
  type Query {
    thing(id: ID!, size: Int! = 10, color: Color): Thing
    things(input: ThingInput!): [Thing]!
    mystery: Mystery
  }
  type Thing {
    name: String!
    note: String
    at: DateTime
    link: URL!
    count: SafeInt!
    ratio: Float
    on: Boolean!
    color: Color!
    tags: [String!]!
    parts: [Part!]
  }
  type Part { label: String! }
  input ThingInput {
    name: String!
    limit: Int = 5
    ratio: Float
    colors: [Color!]
  }
`);

const op = (text: string) =>
  parse(text).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  ) as OperationDefinitionNode;

describe('dataSchema', () => {
  it('follows the selection: non-null fields required, nullable ones also null, scalars in their JSON form', () => {
    const data = dataSchema(
      api,
      op('query { thing(id: "1") { name note at link count ratio on color tags alias: parts { label } } }'),
    );
    expect(data).toEqual({
      type: 'object',
      required: [],
      properties: {
        thing: {
          type: ['object', 'null'],
          required: ['name', 'link', 'count', 'on', 'color', 'tags'],
          properties: {
            name: { type: 'string' },
            note: { type: ['string', 'null'] },
            at: { type: ['string', 'null'] },
            link: { type: 'string' },
            count: { type: 'integer' },
            ratio: { type: ['number', 'null'] },
            on: { type: 'boolean' },
            color: { type: 'string', enum: ['RED', 'GREEN'] },
            tags: { type: 'array', items: { type: 'string' } },
            alias: {
              type: ['array', 'null'],
              items: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } },
            },
          },
        },
      },
    });
    expect(schemaAt(data, 'thing.alias')).toEqual(data.properties?.thing?.properties?.alias);
  });

  it('refuses, at start-up, a scalar it has no JSON form for and a path the data lacks', () => {
    expect(() => dataSchema(api, op('{ mystery }'))).toThrow(/Mystery/);
    expect(() => schemaAt(dataSchema(api, op('{ thing(id: "1") { name } }')), 'thing.note')).toThrow(/thing.note/);
  });

  it('gives a serialiser that leaves out what the selection does not name', async () => {
    const data = dataSchema(api, op('query { thing(id: "1") { name note } }'));
    const app = Fastify();
    app.get('/', { schema: { response: { 200: schemaAt(data, 'thing') } } }, async () => ({
      name: 'a',
      note: null,
      secret: 'never sent',
    }));
    const res = await app.inject({ url: '/' });
    expect(res.json()).toEqual({ name: 'a', note: null });
    await app.close();
  });
});

describe('inputSchema', () => {
  const thing = op(
    'query Q($id: ID!, $size: Int!, $color: Color) { thing(id: $id, size: $size, color: $color) { name } }',
  );

  it('types, requires and defaults parameters from the variables and the arguments they feed', () => {
    expect(
      inputSchema(api, thing, { body: false, constraints: { id: { maxLength: 8 }, size: { minimum: 1 } } }),
    ).toEqual({
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', maxLength: 8 },
        // The argument's default; Int's 32-bit range, narrowed by the constraint.
        size: { type: 'integer', minimum: 1, maximum: 2_147_483_647, default: 10 },
        color: { type: 'string', enum: ['RED', 'GREEN'] },
      },
    });
  });

  it('lets a JSON body carry null for a nullable parameter', () => {
    expect(inputSchema(api, thing, { body: true }).properties?.color).toEqual({
      type: ['string', 'null'],
      enum: ['RED', 'GREEN', null],
    });
  });

  it("takes an input object's fields as the parameters, constraints reaching list items", () => {
    const things = op('query Q($input: ThingInput!) { things(input: $input) { name } }');
    expect(
      inputSchema(api, things, {
        variable: 'input',
        body: false,
        constraints: { name: { minLength: 1 }, colors: { maxItems: 2, items: { description: 'a colour' } } },
      }),
    ).toEqual({
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        limit: { type: 'integer', minimum: -2_147_483_648, maximum: 2_147_483_647, default: 5 },
        ratio: { type: 'number' },
        colors: {
          type: 'array',
          maxItems: 2,
          items: { type: 'string', enum: ['RED', 'GREEN'], description: 'a colour' },
        },
      },
    });
  });

  it('refuses a constraint on a parameter that does not exist', () => {
    expect(() => inputSchema(api, thing, { body: false, constraints: { size2: { minimum: 1 } } })).toThrow(/size2/);
  });

  it('validates a query string as Fastify does: the default fills in, a bound is a 400', async () => {
    const app = Fastify();
    app.get('/', { schema: { querystring: inputSchema(api, thing, { body: false }) } }, async (req) => req.query);
    expect((await app.inject({ url: '/?id=x' })).json()).toEqual({ id: 'x', size: 10 });
    const tooBig = await app.inject({ url: '/?id=x&size=2147483648' });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toMatch(/size/);
    expect((await app.inject({ url: '/?size=1' })).json().message).toMatch(/required property 'id'/);
    await app.close();
  });
});
