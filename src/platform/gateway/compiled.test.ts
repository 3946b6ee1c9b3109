import { ApolloGateway } from '@apollo/gateway';
import type { GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import { execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ALICE } from '../../../test/fixtures/mns/index.js';
import { restRoutes, subgraphs, useNamesApp } from '../../../test/support/features.js';
import { CachedLocalDataSource } from '../gateway/local-data-source.js';
import type { RequestContext } from '../graphql/context.js';
import { CompiledOperations } from './compiled.js';
import { buildSupergraph } from './supergraph.js';

const supergraph = await buildSupergraph(subgraphs);

/** Crosses identity → bridge: two fetches, so the gateway must keep it. */
const CROSS_SUBGRAPH = `query { identitySearch(query: "alice") { results { name multichainAddresses { chain { name } } } } }`;

describe('compiled operations (one execution per request)', () => {
  const app = useNamesApp();
  const context = (memo = new Map<string, unknown>()): RequestContext => ({
    requestId: 'compiled-test',
    services: app.services,
    partner: null,
    log: app.http.log,
    forwardHeaders: {},
    memo,
  });
  const schemaOf = (name: string) => {
    const schema = supergraph.subgraphs.find((s) => s.name === name)?.schema;
    if (!schema) throw new Error(`no ${name} subgraph`);
    return schema;
  };

  it('compiles every REST route, each a single in-process fetch, and leaves the rest to the gateway', () => {
    const compiled = new CompiledOperations(supergraph);
    for (const route of restRoutes) expect(compiled.executorFor(parse(route.operation)), route.url).not.toBeNull();
    expect(compiled.executorFor(parse(CROSS_SUBGRAPH))).toBeNull();
    // A remote subgraph is the gateway's to call.
    const remote = new CompiledOperations(supergraph, ['resolution']);
    expect(remote.executorFor(parse('{ primaryName(address: "0x1", caip2Id: "move-mvmt:126") { name } }'))).toBeNull();
    // Several operations and no name: the gateway gives its own error.
    expect(
      compiled.executorFor(parse('query A { bridgeChains { name } } query B { bridgeChains { name } }')),
    ).toBeNull();
  });

  it('answers what the gateway answers: the same data, and the same errors (message, code, path)', async () => {
    const compiled = new CompiledOperations(supergraph);
    const schemas = new Map(supergraph.subgraphs.map((s) => [s.name, s.schema]));
    const gateway = new ApolloGateway({
      supergraphSdl: supergraph.sdl,
      buildService: ({ name }) => new CachedLocalDataSource(schemas.get(name) as never),
    });
    const { executor } = await gateway.load();
    const cases: [string, Record<string, unknown>][] = [
      ['query N($a: String!) { primaryName(address: $a, caip2Id: "move-mvmt:126") { name owner } }', { a: ALICE }],
      [
        'query N($a: [String!]!) { primaryNames(addresses: $a, caip2Id: "move-mvmt:126") { address name } }',
        { a: [ALICE, '0x2'] },
      ],
      ['{ primaryName(address: "not an address", caip2Id: "move-mvmt:126") { name } }', {}],
      // A non-null variable left to its default (graphql-jit alone would refuse it as not provided).
      [
        'query D($a: String!, $c: String! = "move-mvmt:126") { primaryName(address: $a, caip2Id: $c) { name } }',
        { a: ALICE },
      ],
      ['{ x: primaryName(address: "0x1", caip2Id: "nope:1") { n: name } }', {}],
      ...restRoutes
        .filter((r) => r.url.startsWith('/partners/bridge/chains'))
        .map((r) => [r.operation, {}] as [string, Record<string, unknown>]),
    ];
    const answers: { data: unknown; errors?: { message: string; code: unknown }[] }[] = [];
    try {
      for (const [query, variables] of cases) {
        const document = parse(query);
        const viaGateway = await executor?.({
          request: { query, variables },
          document,
          operationName: null,
          context: context(),
          queryHash: query,
          source: query,
          metrics: {},
          overallCachePolicy: {},
          cache: { get: async () => undefined, set: async () => {}, delete: async () => true },
          logger: console,
        } as unknown as GatewayGraphQLRequestContext);
        const viaCompiled = await compiled.executorFor(document)?.(document, null, variables, context());
        const plain = (result: typeof viaGateway | undefined) => ({
          data: JSON.parse(JSON.stringify(result?.data ?? null)),
          errors: result?.errors?.map((e) => ({ message: e.message, code: e.extensions?.code, path: e.path })),
        });
        expect(viaCompiled, query).toBeDefined();
        expect(plain(viaCompiled), query).toEqual(plain(viaGateway));
        answers.push(plain(viaGateway));
      }
      // The cases cover both an answer and refusals, so neither side can pass by saying nothing.
      expect(answers[0]?.data).toEqual({ primaryName: { name: 'alice.snow', owner: ALICE } });
      expect(answers[2]?.errors?.[0]?.code).toBe('BAD_USER_INPUT');
      expect(answers[3]?.data).toEqual({ primaryName: { name: 'alice.snow' } });
    } finally {
      await gateway.stop();
    }
  });

  it('runs an operation once and gives what graphql-js gives, leaves a resolver got wrong included', async () => {
    const compiled = new CompiledOperations(supergraph);
    const resolution = schemaOf('resolution');
    const query =
      'query N($a: [String!]!) { primaryNames(addresses: $a, caip2Id: "move-mvmt:126") { address name owner } }';
    const document = parse(query);
    const variables = { a: [ALICE] };
    // The resolver's rows come from the request's loaders: these give what a resolver bug might.
    const answering = (row: Record<string, unknown>) => {
      const seen = { calls: 0 };
      const loaders = {
        primaryNames: {
          firstOfEach: async (_networks: unknown, keys: readonly string[]) => {
            seen.calls += 1;
            return keys.map(() => ({ network: '126', source: 'test', ...row }));
          },
        },
      };
      const request = () => context(new Map([['resolution.loaders', loaders]]));
      return { seen, context: request };
    };
    const plain = (result: { data?: unknown; errors?: readonly { message: string; path?: unknown }[] }) => ({
      data: JSON.parse(JSON.stringify(result.data ?? null)),
      errors: result.errors?.map((e) => ({ message: e.message, path: e.path })),
    });
    const cases: [Record<string, unknown>, number][] = [
      [{ name: 'alice.snow', owner: ALICE }, 1],
      // A number and a boolean become strings; an object is a field error that nulls its parents.
      [{ name: 42, owner: true }, 1],
      [{ name: { not: 'a string' }, owner: ALICE }, 1],
    ];
    const answers: unknown[] = [];
    for (const [row, runs] of cases) {
      const ours = answering(row);
      const viaCompiled = await compiled.executorFor(document)?.(document, null, variables, ours.context());
      if (!viaCompiled) throw new Error('not compiled');
      const reference = answering(row);
      const viaGraphqlJs = await execute({
        schema: resolution,
        document,
        variableValues: variables,
        contextValue: reference.context(),
      });
      expect(plain(viaCompiled), JSON.stringify(row)).toEqual(plain(viaGraphqlJs));
      // Each resolver ran once: nothing is asked again.
      expect(ours.seen.calls, JSON.stringify(row)).toBe(runs);
      answers.push(plain(viaCompiled));
    }
    expect(answers[1]).toEqual({ data: { primaryNames: [{ address: ALICE, name: '42', owner: 'true' }] } });
    expect(answers[2]).toMatchObject({ data: null, errors: [{ path: ['primaryNames', 0, 'name'] }] });
  });
});
