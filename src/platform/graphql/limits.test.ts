import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.js';
import { createPartner } from '../../../test/support/features.js';
import { useTestApp } from '../../../test/support/use-app.js';
import { ConfigError, loadConfig } from '../config.js';
import { braceDepth } from './limits.js';

const MAINNET = 'move-mvmt:mainnet';
const address = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

const post = (app: TestApp, query: string, variables?: Record<string, unknown>, apiKey?: string) =>
  app.http.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    payload: { query, variables },
  });

/**
 * Times a request, and /healthz sent while it is being handled (both share the one event loop). Three
 * rounds: the first also pays for warming up the server's code paths; the last one is returned.
 */
async function timed(app: TestApp, query: string, label: string) {
  const rounds: string[] = [];
  let last: Awaited<ReturnType<typeof round>> | undefined;
  const round = async () => {
    const started = performance.now();
    const refused = post(app, query).then((res) => ({ res, ms: performance.now() - started }));
    const health = app.http
      .inject({ method: 'GET', url: '/healthz' })
      .then((res) => ({ res, ms: performance.now() - started }));
    return { refused: await refused, health: await health };
  };
  for (let i = 0; i < 3; i++) {
    last = await round();
    rounds.push(`${last.refused.ms.toFixed(1)} ms (/healthz ${last.health.ms.toFixed(1)} ms)`);
  }
  console.log(`${label} (${Math.round(query.length / 1024)} KiB) refused in ${rounds.join(', ')}`);
  return last as NonNullable<typeof last>;
}

const aliases = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: nameOwner(caip2Id: "${MAINNET}", name: "n${i}") { owner }`).join(' ')} }`;
const nestedInlineFragments = (n: number) =>
  `{ ${'... on Query { '.repeat(n)}namingProviders { provider }${' }'.repeat(n)} }`;

const expectRefusal = (res: { statusCode: number; json(): unknown }, limit: string) => {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
  expect(body.data).toBeUndefined();
  expect(body.errors[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit });
  expect(body.errors[0]?.message).toContain(limit);
  return body.errors[0]?.message ?? '';
};

describe('GraphQL limits with the default settings', () => {
  const app = useTestApp({ BODY_LIMIT_BYTES: String(4 * 1_048_576) });

  it('refuses 14 000 aliases of nameOwner at the token limit, fast, while /healthz answers', async () => {
    const { refused, health } = await timed(app, aliases(14_000), '14 000 aliases');
    expect(expectRefusal(refused.res, 'GRAPHQL_MAX_TOKENS')).toContain('5000');
    expect(refused.ms).toBeLessThan(200);
    expect(health.res.statusCode).toBe(200);
    expect(health.ms).toBeLessThan(200);
  });

  it('refuses 2 000 nested inline fragments, fast', async () => {
    const { refused, health } = await timed(app, nestedInlineFragments(2000), '2 000 nested inline fragments');
    // Refused on its nesting before graphql-js's recursive parser sees it (which could exhaust its stack).
    expect(expectRefusal(refused.res, 'GRAPHQL_MAX_DEPTH')).toContain('2002');
    expect(refused.ms).toBeLessThan(200);
    expect(health.ms).toBeLessThan(200);
  });

  it('lets the README example, the explorer introspection and a 1000-address batch through', async () => {
    // A sandbox partner, so the bridge answers without an upstream.
    const { key } = await createPartner(app.services.db, {
      name: 'Sandbox',
      email: `sandbox-${Date.now()}@example.com`,
      credits: 10,
      sandbox: true,
    });
    const readme = await post(app, '{ stats { creditBalance } bridgeChains { caip2Id name } }', undefined, key.apiKey);
    expect(readme.statusCode).toBe(200);
    expect(readme.json().errors).toBeUndefined();

    const introspection = await post(app, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true }));
    expect(introspection.statusCode).toBe(200);
    expect(introspection.json().data.__schema.queryType.name).toBe('Query');

    const addresses = Array.from({ length: 1000 }, (_, i) => address(i));
    const batch = await app.http.inject({
      method: 'POST',
      url: '/api/public/identity/names',
      headers: { 'content-type': 'application/json' },
      payload: { caip2Id: 'move-mvmt:*', addresses },
    });
    expect(batch.statusCode).toBe(200);
    const inline = await post(
      app,
      `{ primaryNames(addresses: [${addresses.map((a) => `"${a}"`).join(',')}]) { address name owner caip2Id } }`,
    );
    expect(inline.statusCode).toBe(200);
    expect(inline.json().errors).toBeUndefined();
  });

  it('costs a batch by the length of its list variable, on every request of a cached document', async () => {
    const query = /* GraphQL */ `
      query Names($a: [String!]!) {
        p1: primaryNames(addresses: $a) { address name owner }
        p2: primaryNames(addresses: $a) { address name owner }
        p3: primaryNames(addresses: $a) { address name owner }
      }
    `;
    // 3 × (1 + 1000 × 3) = 9003: within the default 10 000.
    const within = await post(app, query, { a: Array.from({ length: 1000 }, (_, i) => address(i)) });
    expect(within.statusCode).toBe(200);
    expect(within.json().errors).toBeUndefined();
    // The same (now cached, already validated) document with longer lists: 3 × (1 + 1200 × 3) = 10 803.
    const over = await post(app, query, { a: Array.from({ length: 1200 }, (_, i) => address(i)) });
    expect(expectRefusal(over, 'GRAPHQL_MAX_COST')).toContain('10803');
  });

  it('refuses an over-cost paid operation without charging or holding anything', async () => {
    const { id, apiKey } = await app.partner(10);
    const search = (alias: string) => `${alias}: identitySearch(query: "alice", perPage: 50) {
      results { name multichainAddresses { address chain { caip2Id name nativeToken logoURI isBridgeSupported } } txtRecords { key value type } }
    }`;
    const res = await post(app, `{ ${search('s1')} ${search('s2')} }`, undefined, apiKey);
    expectRefusal(res, 'GRAPHQL_MAX_COST');
    const stats = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(stats.json()).toMatchObject({ creditBalance: 10, creditUsage: 0 });
    // The hold taken before the cost check is released once the refusal is sent.
    await expect
      .poll(async () => {
        const [row] = await app.services.db.query<{ credit_reserved: number }>(
          'select credit_reserved from partner where id = ?',
          [id],
        );
        return Number(row?.credit_reserved);
      })
      .toBe(0);
  });

  it('refuses an over-alias paid operation without charging anything', async () => {
    const { id, apiKey } = await app.partner(100);
    const query = `{ ${Array.from({ length: 51 }, (_, i) => `c${i}: bridgeChains { caip2Id }`).join(' ')} }`;
    const res = await post(app, query, undefined, apiKey);
    expectRefusal(res, 'GRAPHQL_MAX_ALIASES');
    const stats = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(stats.json()).toMatchObject({ creditBalance: 100, creditUsage: 0 });
    const rows = await app.services.db.query<{ kind: string }>(
      "select kind from ledger_entry where partner_id = ? and kind <> 'grant'",
      [id],
    );
    expect(rows).toEqual([]);
  });

  it("leaves introspection to graphql-js's own nesting bound rather than costing it", async () => {
    const res = await post(app, '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      message: 'Maximum introspection depth exceeded',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });
});

describe('GraphQL limits when configured low', () => {
  const app = useTestApp({
    BODY_LIMIT_BYTES: String(4 * 1_048_576),
    GRAPHQL_MAX_TOKENS: '1000000',
    GRAPHQL_MAX_DEPTH: '4',
    GRAPHQL_MAX_ALIASES: '3',
    GRAPHQL_MAX_ROOT_FIELDS: '5',
    GRAPHQL_MAX_COST: '100',
    GRAPHQL_COST_LIST_SIZE: '10',
  });

  it('refuses 14 000 aliases on the alias limit before validation walks them', async () => {
    const { refused } = await timed(app, aliases(14_000), '14 000 aliases, token limit raised');
    expect(expectRefusal(refused.res, 'GRAPHQL_MAX_ALIASES')).toContain('14000');
    // The whole 180 000-token document is parsed here (the token limit is what spares that): slower.
    expect(refused.ms).toBeLessThan(1000);
  });

  it('refuses 2 000 nested inline fragments on the depth limit, without a 500 from the planner', async () => {
    const { refused } = await timed(
      app,
      nestedInlineFragments(2000),
      '2 000 nested inline fragments, token limit raised',
    );
    expect(expectRefusal(refused.res, 'GRAPHQL_MAX_DEPTH')).toContain('2002');
    expect(refused.ms).toBeLessThan(200);
  });

  it('counts depth through named and inline fragments, and guards fragment cycles', async () => {
    const ok = await post(app, '{ ...A } fragment A on Query { namingProviders { provider } }');
    expect(ok.statusCode).toBe(200);
    const deep = await post(
      app,
      '{ ...A } fragment A on Query { ... on Query { identitySearch(query: "a") { results { name } } } }',
    );
    expect(expectRefusal(deep, 'GRAPHQL_MAX_DEPTH')).toContain('5 levels');
    const cycle = await post(app, '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }');
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('counts root fields through fragments, repeated or not', async () => {
    const five = `{ ${'namingProviders { provider } '.repeat(3)} bridgeProviders { name } ...F } fragment F on Query { namingProviders { source } }`;
    expect((await post(app, five)).statusCode).toBe(200);
    const six = `{ ${'namingProviders { provider } '.repeat(4)} ...F ...F }  fragment F on Query { bridgeProviders { name } }`;
    expect(expectRefusal(await post(app, six), 'GRAPHQL_MAX_ROOT_FIELDS')).toContain('6 root fields');
  });

  it('counts aliases across the fragments an operation uses', async () => {
    const query =
      '{ a: namingProviders { provider } ...F ...F } fragment F on Query { b: bridgeProviders { n: name } }';
    expect(expectRefusal(await post(app, query), 'GRAPHQL_MAX_ALIASES')).toContain('5 aliases');
  });

  it('costs list fields by their perPage argument, literal or variable, else by the assumed size', async () => {
    // identitySearch 1 + pagination 1 + 1 + results (1 + 9 × 1) = 13 ≤ 100.
    const paged =
      'query S($n: Int!) { identitySearch(query: "a", perPage: $n) { pagination { total } results { name } } }';
    const { apiKey } = await app.partner(10);
    expect((await post(app, paged, { n: 9 }, apiKey)).statusCode).toBe(200);
    // 1 + 1 + 1 + (1 + 100 × 1) = 104 > 100.
    expect(expectRefusal(await post(app, paged, { n: 100 }, apiKey), 'GRAPHQL_MAX_COST')).toContain('104');
    const literal = '{ identitySearch(query: "a", perPage: 100) { pagination { total } results { name } } }';
    expect(expectRefusal(await post(app, literal, undefined, apiKey), 'GRAPHQL_MAX_COST')).toContain('104');
    // Without perPage, its schema default (10) sizes the results: 1 + 2 + (1 + 10 × 1) = 14.
    const defaulted = '{ identitySearch(query: "a") { pagination { total } results { name } } }';
    expect((await post(app, defaulted, undefined, apiKey)).statusCode).toBe(200);
    // namingProviders is a list with no size argument: 10 elements assumed.
    const nine = 'provider source providerName caip2Id suffixes logoURI url enabled reason';
    // 1 + 10 × 9 = 91 ≤ 100; __typename is free.
    expect((await post(app, `{ namingProviders { ${nine} __typename } }`)).statusCode).toBe(200);
    // 1 + 10 × 10 = 101 > 100.
    const ten = await post(app, `{ namingProviders { ${nine} again: provider } }`);
    expect(expectRefusal(ten, 'GRAPHQL_MAX_COST')).toContain('101');
  });
});

describe('GraphQL limit settings', () => {
  it('rejects a bad value naming the variable', () => {
    for (const name of [
      'GRAPHQL_MAX_TOKENS',
      'GRAPHQL_MAX_DEPTH',
      'GRAPHQL_MAX_ALIASES',
      'GRAPHQL_MAX_ROOT_FIELDS',
      'GRAPHQL_MAX_COST',
      'GRAPHQL_COST_LIST_SIZE',
      'GRAPHQL_MAX_BATCH',
    ]) {
      expect(() => loadConfig({ [name]: 'lots' })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: '-1' })).toThrow(name);
    }
    expect(loadConfig({}).graphqlLimits).toEqual({
      maxTokens: 5000,
      maxDepth: 24,
      maxAliases: 50,
      maxRootFields: 20,
      maxCost: 10_000,
      costListSize: 10,
      maxBatch: 10,
    });
  });
});

describe('braceDepth', () => {
  it('counts selection nesting and skips strings, block strings and comments', () => {
    expect(braceDepth('{ a { b { c } } }')).toBe(3);
    expect(braceDepth('{ a(x: "{{{{") { b } } # {{{{{{')).toBe(2);
    expect(braceDepth('{ a(x: """{{{\n{{{""") }')).toBe(1);
    expect(braceDepth('{ a(x: "\\"{{{") }')).toBe(1);
    expect(braceDepth('{ a(input: { b: { c: 1 } }) }')).toBe(3);
  });
});
