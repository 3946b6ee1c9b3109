import { writeFileSync } from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildSchema, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner } from '../../src/features/accounts/partners.js';
import { subgraphs } from '../../src/features/index.js';
import { restRoutes } from '../../src/features/routes.js';
import { QUOTED_MAX } from '../../src/platform/errors.js';
import { buildSupergraph } from '../../src/platform/gateway/supergraph.js';
import { deriveRoute } from '../../src/platform/http/rest-plugin.js';
import type { RestRoute } from '../../src/platform/http/rest-route.js';
import { importNamesFile, NAMES_FILE } from '../fixtures/mns/index.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Thousands of malformed requests across every REST route and /graphql. Whatever arrives: no 5xx, every
 * error in its interface's shape with the request's id, no stack trace or SQL in any body, and credits
 * move only for answers that were delivered. Reproduce a failure with FUZZ_SEED=<seed printed below>.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_c1a0);
const COUNT = Number(process.env.FUZZ_COUNT ?? 3200);
const BODY_LIMIT = 32_768;
const GRANTED = 10_000_000;
// Rate-limit counters may live in a Redis shared with other test files: hundreds of invalid keys from
// an address of our own must not use up their failed-key budget.
const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.2`;

type Surface = 'partner' | 'public' | 'graphql';
type KeyKind = 'valid' | 'invalid' | 'none';

interface Case {
  n: number;
  /** What was attacked, for coverage and the failure report. */
  target: string;
  surface: Surface;
  key: KeyKind;
  request: InjectOptions & { method: string; url: string; headers: Record<string, string> };
  /** Strings this request carries: a body may quote them back (`"x" is not a valid …`) without leaking. */
  echoes: string[];
  route?: RestRoute<unknown>;
}

// ── seeded randomness ─────────────────────────────────────────────────────────────────────────────────
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = mulberry32(SEED);
const chance = (p: number) => random() < p;
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

// ── hostile values ────────────────────────────────────────────────────────────────────────────────────
const UINT256_OVERFLOW = (2n ** 256n).toString();
const NASTY: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil\u202c',
  '\u200b',
  '😀',
  '😀'.repeat(300),
  'ä.snow',
  'x'.repeat(256),
  'y'.repeat(5000),
  'z'.repeat(40_000),
  "' OR '1'='1",
  "'; DROP TABLE partner; --",
  '1; SELECT * FROM api_key --',
  '" OR 1=1 UNION SELECT credit_balance FROM partner --',
  '$1',
  '?',
  '%',
  '%zz',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup, meant literally
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e309',
  '-0',
  '1.5',
  '0x',
  '0xzz',
  `0x${'f'.repeat(64)}`,
  `0x${'f'.repeat(65)}`,
  `0x${'1'.repeat(200)}`,
  UINT256_OVERFLOW,
  (2n ** 256n - 1n).toString(),
  (2n ** 512n).toString(),
  '99999999999999999999999999999999999999999999999999999999999999999999999999999999',
  'eip155:',
  ':',
  'eip155:abc',
  'eip155:-1',
  `eip155:${UINT256_OVERFLOW}`,
  'eip155:1:2',
  'EIP155:1',
  'solana:',
  'move-mvmt:',
  'move-mvmt:*',
  'move-mvmt:1*',
  'a'.repeat(33),
  `cgk_00000000_${'A'.repeat(43)}`,
];

/** A plausible value per parameter name, so that the other, hostile parameters are what gets judged. */
const PLAUSIBLE: Record<string, string[]> = {
  caip2Id: ['move-mvmt:126', 'move-mvmt:177', 'move-mvmt:*', 'eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
  name: ['alice.snow', 'bob.snow', 'pay.alice.snow', 'nobody.snow', 'alice'],
  names: ['alice.snow'],
  address: ['0x00A11CE0000000000000000000000000000000000000000000000000000000F1', '0x0b0b', '0x1'],
  addresses: ['0x0b0b'],
  query: ['alice', 'alice.snow', 'bob', 'a'],
  page: ['1', '2'],
  perPage: ['10', '50'],
  fromChain: ['eip155:1', 'eip155:8453'],
  toChain: ['eip155:8453', 'eip155:137'],
  fromToken: ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '0x0000000000000000000000000000000000000000'],
  toToken: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '0x0000000000000000000000000000000000000000'],
  fromAmount: ['1000000', '1'],
  fromAddress: ['0x8ba1f109551bD432803012645Ac136ddd64DBA72'],
  toAddress: ['0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B'],
  slippage: ['0.005', '0.03'],
  txHash: [`0x${'ab'.repeat(32)}`],
  bridge: ['sandbox', 'across', 'lifi'],
  routeId: ['00000000-0000-0000-0000-000000000000'],
};
const plausible = (param: string) => pick(PLAUSIBLE[param] ?? ['x']);

/** A hostile string, sometimes glued to a plausible value so it gets past the first checks. */
const hostile = (param: string): string => {
  const bad = pick(NASTY);
  return chance(0.25) ? `${plausible(param)}${bad}` : bad;
};

/** A JSON value of the wrong kind, or a hostile string. */
function hostileJson(param: string, depth = 0): unknown {
  switch (int(0, 11)) {
    case 0:
      return pick([0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2]);
    case 1:
      return pick([true, false, null]);
    case 2:
      return depth < 2 ? [hostileJson(param, depth + 1), hostileJson(param, depth + 1)] : [];
    case 3:
      return { [pick(['a', '__proto__', 'constructor', '$where'])]: hostile(param) };
    case 4:
      return deepArray(int(50, 400));
    case 5:
      return Array.from({ length: int(1001, 1200) }, () => plausible(param));
    case 6:
      return [plausible(param), hostile(param)];
    default:
      return hostile(param);
  }
}

const deepArray = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const deepJsonText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Percent-encodes, or (sometimes) writes malformed escapes straight into the URL. */
const encode = (value: string): string =>
  chance(0.08) ? pick(['%zz', '%', '%E0%A4%A', '%C3%28', '%ED%A0%80', '%FF', '%00']) : encodeURIComponent(value);

// ── routes and their parameters, read from the route table ─────────────────────────────────────────────
// The parameters' schemas are derived from the GraphQL operations, as the app derives them.
const api = buildSchema((await buildSupergraph(subgraphs)).apiSdl);
const schemaOf = (route: RestRoute<unknown>) => deriveRoute(api, route).schema;
const propsOf = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});

const surfaceOfUrl = (url: string): Surface =>
  url.startsWith('/partners') ? 'partner' : url.startsWith('/graphql') ? 'graphql' : 'public';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/graphql',
  'application/json; charset=latin1',
  'application/octet-stream',
  'json',
  '',
];

let apiKey = '';
const keyFor = (): { kind: KeyKind; header?: string } => {
  const r = random();
  if (r < 0.55) return { kind: 'valid', header: chance(0.1) ? ` ${apiKey} ` : apiKey };
  if (r < 0.8) return { kind: 'none' };
  return {
    kind: 'invalid',
    header: pick([
      'nope',
      `${apiKey.slice(0, -1)}A`,
      `cgk_00000000_${'B'.repeat(43)}`,
      `${apiKey}x`,
      apiKey.slice(0, 12),
      'k'.repeat(4000),
      "' OR 1=1 --",
      apiKey.toUpperCase(),
    ]),
  };
};

function restCase(n: number, route: RestRoute<unknown>): Case {
  const key = keyFor();
  const echoes: string[] = [];
  const headers: Record<string, string> = { 'x-request-id': `fuzz-${n}` };
  if (key.header !== undefined) headers['x-api-key'] = key.header;
  const method = chance(0.12) ? pick(METHODS) : route.method;
  let url = route.url;

  // Path parameters (metadata/:name)
  for (const param of propsOf(schemaOf(route).params)) {
    const value = chance(0.7) ? hostile(param) : plausible(param);
    echoes.push(value);
    url = url.replace(`:${param}`, value === '' ? '' : encode(value));
  }

  const query = propsOf(schemaOf(route).querystring);
  const parts: string[] = [];
  for (const param of query) {
    const r = random();
    if (r < 0.15) continue; // omitted
    const values = r < 0.45 ? [hostile(param)] : r < 0.55 ? [plausible(param), hostile(param)] : [plausible(param)];
    for (const value of values) {
      echoes.push(value);
      parts.push(`${encodeURIComponent(param)}=${encode(value)}`);
    }
  }
  if (chance(0.2)) {
    const extra = hostile('extra');
    echoes.push(extra);
    parts.push(`${pick(['extra', '__proto__', 'constructor', 'query[a]', 'page[]', '%zz', ''])}=${encode(extra)}`);
  }
  if (parts.length) url += `?${parts.join('&')}`;

  const request: Case['request'] = { method, url, headers };
  const bodyProps = propsOf(schemaOf(route).body);
  if (bodyProps.length && method !== 'GET' && method !== 'HEAD') {
    const r = random();
    if (r < 0.12) {
      headers['content-type'] = 'application/json';
      request.payload = pick([
        '{',
        '{"caip2Id": "move-mvmt:126", "names": [',
        '[1,2',
        'null',
        '"string"',
        '42',
        '{"a":1,}',
        "{'a': 1}",
        '\u0000',
        deepJsonText(int(500, 5000)),
        `{"__proto__": {"polluted": true}, "${bodyProps[0]}": []}`,
        '{"constructor": {"prototype": {"x": 1}}}',
      ]);
    } else if (r < 0.2) {
      headers['content-type'] = pick(CONTENT_TYPES);
      request.payload = pick(['names=alice', '<x/>', 'hello', '{"names":["a"]}', '\u0000\u0001']);
    } else if (r < 0.25) {
      headers['content-type'] = 'application/json';
      request.payload = JSON.stringify({
        caip2Id: 'move-mvmt:126',
        [bodyProps.at(-1) as string]: Array(BODY_LIMIT / 4).fill('0x1'),
      });
    } else {
      const body: Record<string, unknown> = {};
      for (const param of bodyProps) {
        const b = random();
        if (b < 0.15) continue;
        const plural = param === 'names' || param === 'addresses';
        if (b < 0.6) body[param] = hostileJson(param);
        else if (plural) body[param] = chance(0.5) ? [plausible(param), hostile(param)] : [plausible(param)];
        else body[param] = plausible(param);
      }
      if (chance(0.1)) body[pick(['extra', '__proto__', 'constructor'])] = hostileJson('extra');
      const text = JSON.stringify(body);
      echoes.push(...collectStrings(body));
      headers['content-type'] = chance(0.9) ? 'application/json' : pick(CONTENT_TYPES);
      request.payload = text;
    }
  }
  return {
    n,
    target: `${route.method} ${route.url}`,
    surface: surfaceOfUrl(route.url),
    key: key.kind,
    request,
    echoes,
    route,
  };
}

const collectStrings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.slice(0, 50).flatMap(collectStrings)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(collectStrings)
        : [];

/** Paths near the real ones: bad escapes, unknown children, encoded prefixes. */
function pathCase(n: number): Case {
  const key = keyFor();
  const headers: Record<string, string> = { 'x-request-id': `fuzz-${n}` };
  if (key.header !== undefined) headers['x-api-key'] = key.header;
  const base = pick([
    '/partners',
    '/partners/bridge',
    '/partners/cip/identity',
    '/api/public/identity',
    '/api/public/identity/metadata',
    '/api/public/public-identity',
    '/%70artners',
    '/api/%70ublic/identity',
  ]);
  const tail = pick([
    '/%zz',
    '/%',
    '/%E0%A4%A',
    '/%00',
    '/..%2F..%2Fetc%2Fpasswd',
    '/stats/',
    '//stats',
    '/quote/extra',
    `/${'n'.repeat(int(100, 3000))}`,
    `/${encodeURIComponent('😀'.repeat(int(1, 400)))}`,
    `/${encodeURIComponent(pick(NASTY))}`,
    '/metadata/%zz',
    '/metadata/',
    '',
  ]);
  const surface: Surface = base.includes('artners') ? 'partner' : 'public';
  return {
    n,
    target: `path ${base}`,
    surface,
    key: key.kind,
    request: { method: pick(METHODS), url: `${base}${tail}`, headers },
    echoes: [],
  };
}

const OPERATIONS = restRoutes.map((route) => route.operation);
function graphqlCase(n: number): Case {
  const key = keyFor();
  const headers: Record<string, string> = { 'x-request-id': `fuzz-${n}` };
  if (key.header !== undefined) headers['x-api-key'] = key.header;
  const echoes: string[] = [];
  const base = pick(OPERATIONS);
  const varNames = [...base.matchAll(/\$(\w+)/g)].map((m) => m[1] as string);
  const variables: Record<string, unknown> = {};
  for (const name of new Set(varNames)) {
    const r = random();
    if (r < 0.15) continue;
    variables[name] =
      name === 'input'
        ? Object.fromEntries(
            ['fromChain', 'toChain', 'fromToken', 'toToken', 'fromAmount', 'fromAddress', 'slippage'].map((p) => [
              p,
              chance(0.3) ? hostileJson(p) : p === 'slippage' ? 0.01 : plausible(p),
            ]),
          )
        : r < 0.6
          ? hostileJson(name)
          : name === 'names' || name === 'addresses'
            ? [plausible(name)]
            : name === 'page' || name === 'perPage'
              ? int(-5, 5)
              : plausible(name);
  }
  echoes.push(...collectStrings(variables));
  // A literal written into the query text; the answer may quote it back.
  const literal = (value: string) => {
    echoes.push(value);
    return JSON.stringify(value);
  };
  const query = pick<() => string>([
    () => base,
    () => base,
    () => base.replace('{', '{ {'),
    () => base.slice(0, int(1, base.length - 1)),
    () => `${base}\n${base}`,
    () => base.replace(/query (\w+)/, 'mutation $1'),
    () => base.replace(/query (\w+)/, 'subscription $1'),
    () => `{ ${'a { '.repeat(int(20, 200))}b${' }'.repeat(int(20, 200))} }`,
    () => `{ ${Array.from({ length: int(2, 50) }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    () => `{ unknownField${int(0, 9)} }`,
    () => '{ __schema { types { name fields { name } } } }',
    () => `query { stats { email } } fragment F on Query { ...F }`,
    () => pick(NASTY),
    () => `{ nameOwner(name: ${literal(pick(NASTY))}) }`,
    () => `{ bridgeTokens(caip2Id: ${literal(pick(NASTY))}) { caip2Id } }`,
    () => `{ bridgeTokens(caip2Id: ${UINT256_OVERFLOW}) { caip2Id } }`,
    () => `{ identitySearch(query: "a", page: ${UINT256_OVERFLOW}) { total } }`,
  ])();
  echoes.push(query);
  const operationName = pick([undefined, undefined, undefined, '', 'Nope', base.match(/query (\w+)/)?.[1], 42, null]);
  const body: Record<string, unknown> = { query, variables };
  if (operationName !== undefined) body.operationName = operationName;
  if (chance(0.05)) body.variables = pick(['{}', 'not json', [], 7]);
  if (chance(0.05)) body.extensions = { persistedQuery: { version: 1, sha256Hash: pick(NASTY) } };

  const r = random();
  let request: Case['request'];
  if (r < 0.12) {
    // GET: query in the URL (Apollo refuses a GET without a preflight-forcing header; either way no 5xx)
    if (chance(0.5)) headers['apollo-require-preflight'] = 'true';
    const qs = `query=${encode(query)}&variables=${encode(JSON.stringify(variables))}`;
    request = { method: 'GET', url: `/graphql?${qs}`, headers };
  } else if (r < 0.22) {
    headers['content-type'] = 'application/json';
    request = {
      method: 'POST',
      url: '/graphql',
      headers,
      payload: pick([
        '{',
        '{"query":',
        '[]',
        `[${JSON.stringify(body)},${JSON.stringify(body)}]`,
        'null',
        '"{ __typename }"',
        '{"query": 42}',
        '{"query": null}',
        '{"query": ["{ __typename }"]}',
        '{"query": {"a": 1}}',
        deepJsonText(int(500, 5000)),
        `{"query": "{ __typename }", "variables": ${deepJsonText(int(100, 1000))}}`,
      ]),
    };
  } else if (r < 0.3) {
    headers['content-type'] = pick(CONTENT_TYPES);
    request = { method: 'POST', url: '/graphql', headers, payload: pick([JSON.stringify(body), query, '<q/>']) };
  } else if (r < 0.34) {
    headers['content-type'] = 'application/json';
    request = {
      method: 'POST',
      url: '/graphql',
      headers,
      payload: JSON.stringify({ query: `{ __typename ${'#'.repeat(BODY_LIMIT)} }` }),
    };
  } else if (r < 0.4) {
    request = { method: pick(['PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']), url: '/graphql', headers };
  } else {
    headers['content-type'] = 'application/json';
    request = { method: 'POST', url: '/graphql', headers, payload: JSON.stringify(body) };
  }
  return { n, target: 'graphql', surface: 'graphql', key: key.kind, request, echoes };
}

function makeCase(n: number): Case {
  const r = random();
  if (r < 0.25) return graphqlCase(n);
  if (r < 0.33) return pathCase(n);
  return restCase(n, pick(restRoutes));
}

// ── judging one answer ────────────────────────────────────────────────────────────────────────────────
const STACK = /\n\s+at\s|\bat\s+[\w.<>]+\s+\([^)]*:\d+:\d+\)|node_modules|file:\/\/|\.ts:\d+|stacktrace/i;
const SQL =
  /\bselect\b[^"]{0,200}\bfrom\b|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|SQLITE_|\bsqlite\b|postgres|syntax error at|\brelation\s+"|violates|ledger_entry|credit_balance|credit_reservation|\bapi_key\b/i;

function judge(c: Case, res: LightMyRequestResponse): string | undefined {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.headers['x-request-id'] !== `fuzz-${c.n}`) return `x-request-id ${String(res.headers['x-request-id'])}`;
  if (c.request.method === 'HEAD') return res.body === '' ? undefined : 'HEAD answered a body';
  // Quoting the request back is fine; anything else that looks like a stack or SQL is a leak.
  let body = res.body;
  for (const echo of [...c.echoes, c.request.url, String(c.request.payload ?? '')].sort(
    (a, b) => b.length - a.length,
  )) {
    if (echo.length < 3) continue;
    // A long value is quoted by its start.
    const start = echo.length > QUOTED_MAX ? [`${echo.slice(0, QUOTED_MAX)}…`] : [];
    for (const text of [echo, ...start])
      for (const form of [text, JSON.stringify(text).slice(1, -1)]) body = body.split(form).join('');
  }
  if (STACK.test(body)) return `stack trace in body: ${STACK.exec(body)?.[0]}`;
  if (SQL.test(body)) return `SQL in body: ${SQL.exec(body)?.[0]}`;
  if (res.statusCode < 400) return undefined;

  let json: unknown;
  try {
    json = res.json();
  } catch {
    return 'error body is not JSON';
  }
  const obj = json as Record<string, unknown>;
  const keys = Object.keys(obj ?? {}).sort();
  if (c.surface === 'public') {
    return keys.join() === 'message' && typeof obj.message === 'string' ? undefined : 'not the public {message} shape';
  }
  if (c.surface === 'partner') {
    return keys.join() === 'error,message,statusCode' &&
      obj.statusCode === res.statusCode &&
      typeof obj.message === 'string' &&
      typeof obj.error === 'string'
      ? undefined
      : 'not the partner {statusCode,message,error} shape';
  }
  const errors = obj.errors as Array<{ message?: unknown; extensions?: { code?: unknown } }> | undefined;
  return Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((e) => typeof e.message === 'string' && typeof e.extensions?.code === 'string')
    ? undefined
    : 'not the GraphQL {errors:[{message, extensions:{code}}]} shape';
}

const show = (c: Case, res: LightMyRequestResponse | undefined, problem: string) =>
  [
    `#${c.n} (${c.target}, key ${c.key}): ${problem}`,
    `  ${c.request.method} ${c.request.url.slice(0, 300)}`,
    `  headers ${JSON.stringify(c.request.headers).slice(0, 300)}`,
    c.request.payload === undefined ? '' : `  payload ${String(c.request.payload).slice(0, 300)}`,
    res ? `  → ${res.statusCode} ${res.body.slice(0, 400)}` : '',
  ]
    .filter(Boolean)
    .join('\n');

// ── the run ───────────────────────────────────────────────────────────────────────────────────────────
describe('malformed requests', () => {
  let app: TestApp;
  let partnerId: string;

  beforeAll(async () => {
    app = await startTestApp({
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      RATE_LIMIT_PARTNER_MAX: '10000000',
      RATE_LIMIT_PUBLIC_MAX: '10000000',
      RATE_LIMIT_FAILED_AUTH_MAX: '10000000',
    });
    expect((await importNamesFile(app.database.url, NAMES_FILE)).code).toBe(0);
    const { partner, key } = await createPartner(app.services.db, {
      name: 'Fuzz',
      email: 'fuzz@example.com',
      credits: GRANTED,
      sandbox: true,
    });
    partnerId = partner.id;
    apiKey = key.apiKey;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it(`answers ${COUNT} of them without a 5xx, in shape, and charges only delivered answers (seed ${SEED})`, async () => {
    const cases = Array.from({ length: COUNT }, (_, n) => makeCase(n));
    const failures: string[] = [];
    const answered = new Map<string, { c: Case; status: number }>();
    const started = Date.now();
    for (const c of cases) {
      let res: LightMyRequestResponse | undefined;
      try {
        res = await app.http.inject({ remoteAddress, ...c.request });
      } catch (err) {
        failures.push(show(c, undefined, `inject threw ${(err as Error).message}`));
        continue;
      }
      answered.set(`fuzz-${c.n}`, { c, status: res.statusCode });
      const problem = judge(c, res);
      if (problem) failures.push(show(c, res, problem));
    }
    const elapsed = Date.now() - started;

    // Every route, every method and each kind of key was exercised, so a quiet run means something.
    const targets = new Set(cases.map((c) => c.target));
    for (const route of restRoutes) expect(targets, route.url).toContain(`${route.method} ${route.url}`);
    expect(targets).toContain('graphql');
    expect(new Set(cases.map((c) => c.request.method))).toEqual(new Set(METHODS));
    expect(new Set(cases.map((c) => c.key))).toEqual(new Set(['valid', 'invalid', 'none']));

    // Money: a charge only for a delivered 200, exactly the route's price on REST, and the books balance.
    await waitForSettlement(app, partnerId);
    const prices = (await buildSupergraph(subgraphs)).prices;
    const priceOf = (route: RestRoute<unknown>) =>
      parse(route.operation).definitions.reduce(
        (sum, def) =>
          sum +
          ('selectionSet' in def && def.selectionSet
            ? def.selectionSet.selections.reduce(
                (s, sel) => s + ('name' in sel && sel.name ? (prices.get(`query.${sel.name.value}`) ?? 0) : 0),
                0,
              )
            : 0),
        0,
      );
    const charges = await app.services.db.query<{ request_id: string | null; credits: number | string }>(
      "select request_id, credits from ledger_entry where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
    const charged = new Map<string, number>();
    for (const row of charges) {
      const id = String(row.request_id);
      charged.set(id, (charged.get(id) ?? 0) + Number(row.credits));
    }
    for (const [id, credits] of charged) {
      const a = answered.get(id);
      if (!a) failures.push(`charge of ${credits} for unknown request ${id}`);
      else if (a.status !== 200 || a.c.request.method === 'HEAD')
        failures.push(show(a.c, undefined, `charged ${credits} for a ${a.status} answer`));
    }
    let expectedRest = 0;
    for (const { c, status } of answered.values()) {
      if (status !== 200 || c.key !== 'valid' || !c.route || c.request.method !== c.route.method) continue;
      const price = priceOf(c.route);
      expectedRest += price;
      const got = charged.get(`fuzz-${c.n}`) ?? 0;
      if (got !== price) failures.push(show(c, undefined, `answered 200 at price ${price} but charged ${got}`));
    }
    const [partner] = await app.services.db.query<{ b: number | string; u: number | string; r: number | string }>(
      'select credit_balance as b, credit_usage as u, credit_reserved as r from partner where id = ?',
      [partnerId],
    );
    const totalCharged = [...charged.values()].reduce((a, b) => a + b, 0);
    const statuses = new Map<number, number>();
    for (const { status } of answered.values()) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    const summary = `seed ${SEED}: ${COUNT} requests in ${elapsed} ms (${histogram.join(' ')}); ${totalCharged} credits charged (${expectedRest} on REST)`;
    console.info(summary);
    // FUZZ_REPORT=<file> keeps every failure, not just the first ones, for a long debugging session.
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, `${summary}\n${failures.join('\n')}\n`);
    if (failures.length) {
      expect.fail(`${summary}\n${failures.length} failures, the first ones:\n${failures.slice(0, 15).join('\n')}`);
    }
    expect(Number(partner?.b) + Number(partner?.u)).toBe(GRANTED);
    expect(Number(partner?.u)).toBe(totalCharged);
    expect(Number(partner?.r)).toBe(0);
  }, 120_000);
});

/** Charges settle just after the answer is sent: wait until nothing is held any more. */
async function waitForSettlement(app: TestApp, partnerId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [row] = await app.services.db.query<{ r: number | string }>(
      'select credit_reserved as r from partner where id = ?',
      [partnerId],
    );
    if (Number(row?.r) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
