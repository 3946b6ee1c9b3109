import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/support/app.js';
import { postGraphql } from '../../../test/support/graphql.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { useTestApp } from '../../../test/support/use-app.js';
import { httpStatusOfResult } from './errors.js';

type Body = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] };

describe('HTTP statuses on /graphql', () => {
  const app = useTestApp({}, { subgraphs: withMetered() });

  const post = (payload: Record<string, unknown>, apiKey?: string) => postGraphql(app, payload, apiKey);
  const stats = async (apiKey: string) =>
    (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json();
  const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
    const body = res.json() as Body;
    expect({ status: res.statusCode, code: body.errors?.[0]?.extensions?.code }).toEqual({ status, code });
    return body;
  };

  it('answers 401 for a paid field without a key', async () => {
    const body = expectError(await post({ query: '{ meteredTwo }' }), 401, 'UNAUTHENTICATED');
    expect(body.data).toBeUndefined();
  });

  it('answers 400 for insufficient credits, and charges nothing', async () => {
    const { apiKey } = await app.partner(1);
    expectError(await post({ query: '{ meteredTwo }' }, apiKey), 400, 'INSUFFICIENT_CREDITS');
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 1, creditUsage: 0 });
  });

  it('answers 400 for operations it cannot run', async () => {
    const twoOps = 'query A { namingProviders { provider } } query B { bridgeProviders { name } }';
    const cases: [Record<string, unknown>, string][] = [
      [{ query: 'mutation { meteredTwo }' }, 'GRAPHQL_VALIDATION_FAILED'],
      [{ query: 'subscription { meteredTwo }' }, 'GRAPHQL_VALIDATION_FAILED'],
      [{ query: twoOps }, 'OPERATION_RESOLUTION_FAILURE'],
      [{ query: twoOps, operationName: 'C' }, 'OPERATION_RESOLUTION_FAILURE'],
      [{ query: twoOps, operationName: '' }, 'OPERATION_RESOLUTION_FAILURE'],
      [{ query: '{ namingProviders { provider }' }, 'GRAPHQL_PARSE_FAILED'],
      [{ query: '{ nope }' }, 'GRAPHQL_VALIDATION_FAILED'],
      [
        { query: 'query Q($n: Int!) { identitySearch(query: "a", perPage: $n) { pagination { total } } }' },
        'BAD_USER_INPUT',
      ],
      [{}, 'BAD_REQUEST'],
    ];
    const { apiKey } = await app.partner(10);
    for (const [payload, code] of cases) {
      const res = await post(payload, apiKey);
      expect({ payload, status: res.statusCode, code: (res.json() as Body).errors?.[0]?.extensions?.code }).toEqual({
        payload,
        status: 400,
        code,
      });
    }
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 10, creditUsage: 0 });
  });

  it('keeps the 200 Apollo gives an unknown persisted query hash, so clients send the query', async () => {
    const res = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Body).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('runs the named one of several operations', async () => {
    const twoOps = 'query A { namingProviders { provider } } query B { bridgeProviders { name } }';
    const res = await post({ query: twoOps, operationName: 'B' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys((res.json() as Body).data ?? {})).toEqual(['bridgeProviders']);
  });

  it('answers 503 when the whole operation failed on an unavailable upstream, 200 for partial results', async () => {
    const { apiKey } = await app.partner(20);
    expectError(await post({ query: '{ meteredFails }' }, apiKey), 503, 'UPSTREAM_UNAVAILABLE');
    expectError(await post({ query: '{ a: meteredFails b: meteredFails }' }, apiKey), 503, 'UPSTREAM_UNAVAILABLE');
    const partial = await post({ query: '{ meteredTwo meteredFails }' }, apiKey);
    expect(partial.statusCode).toBe(200);
    expect((partial.json() as Body).data).toEqual({ meteredTwo: 2, meteredFails: null });
    // Only the answered field is charged, and only for the 200.
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 18, creditUsage: 2 });
  });

  it('keeps a field error that is not an outage a 200 with data, and a bug a 500', async () => {
    const { apiKey } = await app.partner(10);
    const input = await post({ query: '{ meteredFails(how: "input") }' }, apiKey);
    expect(input.statusCode).toBe(200);
    expect((input.json() as Body).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const bug = await post({ query: '{ meteredBug }' }, apiKey);
    expect(bug.statusCode).toBe(200);
    expect((bug.json() as Body).errors?.[0]).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('keeps Apollo’s CSRF refusal of a simple GET, and maps GET errors like POST ones', async () => {
    const query = encodeURIComponent('{ meteredTwo }');
    const simple = await app.http.inject({ method: 'GET', url: `/graphql?query=${query}` });
    expect(simple.statusCode).toBe(400);
    expect(simple.body).toContain('CSRF');
    const preflighted = await app.http.inject({
      method: 'GET',
      url: `/graphql?query=${query}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expectError(preflighted, 401, 'UNAUTHENTICATED');
    const free = await app.http.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('{ namingProviders { provider } }')}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(free.statusCode).toBe(200);
  });
});

describe('bad input that graphql-js finds only while executing, and persisted-query refusals', () => {
  // Logged at warn and above: none of these may log an error.
  const logStream = new PassThrough();
  const logs: { level: number; msg?: string }[] = [];
  logStream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
  });
  const app = useTestApp({ LOG_LEVEL: 'warn' }, { subgraphs: withMetered(), logStream });

  const SEARCH = 'query S($p: Int = 1) { identitySearch(query: "alice", page: $p) { pagination { total } } }';
  const INCLUDE = 'query I($v: Boolean = true) { namingProviders @include(if: $v) { provider } }';
  const NESTED = 'query N($v: Boolean = true) { namingProviders { provider @include(if: $v) } }';
  /** The same request over each way into /graphql: POST (direct path), POST to Apollo's pipeline, GET. */
  const everyWay = (payload: Record<string, unknown>, apiKey: string) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(payload)) search.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    return Promise.all([
      postGraphql(app, payload, apiKey),
      postGraphql(app, { ...payload, extensions: { ...(payload.extensions as object) } }, apiKey),
      app.http.inject({
        method: 'GET',
        url: `/graphql?${search}`,
        headers: { 'x-api-key': apiKey, 'apollo-require-preflight': 'true' },
      }),
    ]);
  };
  const errorLogs = () => logs.filter((line) => line.level >= 50);

  it('refuses an explicit null for a variable with a default used where a value is required: free 400s', async () => {
    const { apiKey } = await app.partner(10);
    const cases: [string, Record<string, unknown>][] = [
      [SEARCH, { p: null }],
      [INCLUDE, { v: null }],
      [NESTED, { v: null }],
    ];
    for (const [query, variables] of cases) {
      for (const res of await everyWay({ query, variables }, apiKey)) {
        const body = expectError(res, 400, 'BAD_USER_INPUT');
        expect(body.errors?.[0]?.message).toMatch(/^Variable "\$[pv]" got invalid value null; Expected non-nullable/);
        expect(body.data).toBeUndefined();
      }
    }
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 10, creditUsage: 0 });
    // The defaults still apply when the variable is left out, and a value is taken as given.
    for (const res of await everyWay({ query: SEARCH }, apiKey)) expect(res.statusCode, res.body).toBe(200);
    for (const res of await everyWay({ query: INCLUDE, variables: { v: false } }, apiKey)) {
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as Body).data).toEqual({});
    }
    expect(errorLogs()).toEqual([]);
  });

  it('answers persisted queries as Apollo Server does, a mismatched hash with a 400 BAD_REQUEST', async () => {
    const { apiKey } = await app.partner(10);
    const query = '{ namingProviders { provider } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
    for (const res of await everyWay({ query, extensions: apq('b'.repeat(64)) }, apiKey)) {
      expect(expectError(res, 400, 'BAD_REQUEST').errors?.[0]?.message).toBe('provided sha does not match query');
    }
    for (const res of await everyWay({ extensions: apq('c'.repeat(64)) }, apiKey)) {
      expect(res.statusCode).toBe(200);
      expect((res.json() as Body).errors?.[0]).toMatchObject({
        message: 'PersistedQueryNotFound',
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
      });
    }
    for (const res of await everyWay({ extensions: { persistedQuery: { version: 2, sha256Hash } } }, apiKey)) {
      expectError(res, 400, 'BAD_REQUEST');
    }
    // Registered with its query, then sent by hash alone: a null variable is refused there too.
    const searchHash = createHash('sha256').update(SEARCH).digest('hex');
    expect((await postGraphql(app, { query: SEARCH, extensions: apq(searchHash) }, apiKey)).statusCode).toBe(200);
    for (const res of await everyWay({ extensions: apq(searchHash), variables: { p: null } }, apiKey)) {
      expectError(res, 400, 'BAD_USER_INPUT');
    }
    expect(errorLogs()).toEqual([]);
  });

  const stats = async (apiKey: string) =>
    (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json();
  const expectError = (res: { statusCode: number; json(): unknown; body: string }, status: number, code: string) => {
    const body = res.json() as Body;
    expect({ status: res.statusCode, code: body.errors?.[0]?.extensions?.code }, res.body).toEqual({ status, code });
    return body;
  };
});

describe('field suggestions follow the explorer switch', () => {
  for (const explorer of [true, false]) {
    it(`GRAPHQL_EXPLORER=${explorer}: ${explorer ? 'suggests' : 'does not suggest'} field names`, async () => {
      const app = await startTestApp({ GRAPHQL_EXPLORER: String(explorer) });
      try {
        const res = await postGraphql(app, { query: '{ bridgeChain { caip2Id } }' });
        expect(res.statusCode).toBe(400);
        const message = (res.json() as Body).errors?.[0]?.message ?? '';
        expect(message).toContain('Cannot query field "bridgeChain" on type "Query"');
        expect(message.includes('Did you mean')).toBe(explorer);
        expect(message.includes('bridgeChains')).toBe(explorer);
        // Variables are checked while executing, not validating: their errors suggest names too.
        const { apiKey } = await app.partner(10);
        const variable = await postGraphql(
          app,
          {
            query: 'query Q($i: BridgeQuoteInput!) { bridgeQuote(input: $i) { id } }',
            variables: { i: { fromChian: 'eip155:1' } },
          },
          apiKey,
        );
        expect(variable.statusCode).toBe(400);
        const messages = ((variable.json() as Body).errors ?? []).map((e) => e.message).join('\n');
        expect(messages).toContain('Field "fromChian" is not defined by type "BridgeQuoteInput"');
        expect(messages.includes('Did you mean "fromChain"')).toBe(explorer);
        expect(
          await app.http
            .inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })
            .then((r) => r.json()),
        ).toMatchObject({ creditBalance: 10, creditUsage: 0 });
      } finally {
        await app.stop();
      }
    });
  }
});

describe('httpStatusOfResult', () => {
  const err = (code: string, key?: string) => ({
    message: code,
    extensions: { code },
    ...(key ? { path: [key] } : {}),
  });
  it('maps a request without data by its first error, and leaves successes and partial results alone', () => {
    expect(httpStatusOfResult({ data: { a: 1 } })).toBeUndefined();
    expect(httpStatusOfResult({ errors: [err('UNAUTHENTICATED')] })).toBe(401);
    expect(httpStatusOfResult({ errors: [err('RATE_LIMITED')] })).toBe(429);
    expect(httpStatusOfResult({ errors: [err('INSUFFICIENT_CREDITS')] })).toBe(400);
    expect(httpStatusOfResult({ data: null, errors: [err('UPSTREAM_UNAVAILABLE', 'a')] })).toBe(503);
    expect(httpStatusOfResult({ errors: [err('PERSISTED_QUERY_NOT_FOUND')] })).toBeUndefined();
    expect(httpStatusOfResult({ data: { a: null, b: 1 }, errors: [err('UPSTREAM_UNAVAILABLE', 'a')] })).toBeUndefined();
    expect(httpStatusOfResult({ data: { a: null }, errors: [err('UPSTREAM_UNAVAILABLE', 'a')] })).toBe(503);
    expect(
      httpStatusOfResult({
        data: { a: null, b: null },
        errors: [err('UPSTREAM_UNAVAILABLE', 'a'), err('NOT_FOUND', 'b')],
      }),
    ).toBeUndefined();
  });
});
