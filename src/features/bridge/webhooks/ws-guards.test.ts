/**
 * The WebSocket passes every guard an HTTP request passes, with the same limiter and the same answers:
 * the failed-key limit, the partner's rate limit, the body limit (as a frame limit, before parsing), the
 * GraphQL limits, and a revoked key refused within the bound HTTP's key cache allows.
 */
import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type Standin, startStandin } from '../../../../test/support/http-standin.js';
import { revokeApiKey } from '../../accounts/api-keys.js';
import {
  errorCode,
  firstError,
  openSocket,
  type RawSocket,
  SUBSCRIPTION,
  txHash,
  waitFor,
} from './push.test-helper.js';

const BODY_LIMIT = 65_536;
const KEY_CACHE_TTL_MS = 1000;

describe('the WebSocket has every HTTP guard', () => {
  let lifi: Standin;
  let app: TestApp;
  let wsUrl: string;
  const sockets: RawSocket[] = [];

  beforeAll(async () => {
    lifi = await startStandin();
    lifi.reply('/v1/status', { status: 503, json: { message: 'unavailable' } });
    app = await startTestApp({
      LIFI_API_URL: `${lifi.url}/v1`,
      PROVIDER_TIMEOUT_MS: '2000',
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      RATE_LIMIT_FAILED_AUTH_MAX: '3',
      RATE_LIMIT_PARTNER_MAX: '30',
      // The proxy's X-Forwarded-For names the client, so this file's failed keys fill a bucket of their own.
      TRUST_PROXY: '1',
    });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await app?.stop();
    await lifi?.close();
  });

  const open = async (key: string) => {
    const socket = await openSocket(wsUrl, key);
    sockets.push(socket);
    return socket;
  };
  const http = (query: string, key: string, headers: Record<string, string> = {}) =>
    app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ query }),
    });

  it('counts bad keys in the failed-key limit HTTP uses, and refuses bad keys of an address over it', async () => {
    const { apiKey } = await app.partner(10);
    const client = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const forwarded = { 'x-forwarded-for': client };
    const socketFrom = (key: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, 'graphql-transport-ws', { headers: forwarded });
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': key } })));
        ws.on('message', (data) => {
          if (JSON.parse(String(data)).type === 'connection_ack') ws.close(1000);
        });
        ws.on('close', (code) => resolve(code));
        ws.on('error', reject);
      });
    // Bad keys over the WebSocket: refused, and counted where HTTP counts them.
    expect(await socketFrom('cgk_00000000_wrong')).toBe(4403);
    expect(await socketFrom('cgk_00000000_wrong')).toBe(4403);
    let httpStatus = 0;
    for (let i = 0; i < 5 && httpStatus !== 429; i++)
      httpStatus = (await http('{ bridgeProviders { name } }', 'cgk_00000000_wrong', forwarded)).statusCode;
    expect(httpStatus).toBe(429);
    // Over the budget, both transports refuse a bad key with a 429; a valid key is still served by both.
    expect(await socketFrom('cgk_00000000_wrong')).toBe(4429);
    expect((await http('{ bridgeProviders { name } }', 'cgk_00000000_wrong', forwarded)).statusCode).toBe(429);
    expect(await socketFrom(apiKey)).toBe(1000);
    expect((await http('{ bridgeProviders { name } }', apiKey, forwarded)).statusCode).toBe(200);
    // Another address is not concerned.
    const elsewhere = await open(apiKey);
    expect(elsewhere.messages.some((m) => m.type === 'connection_ack')).toBe(true);
  });

  it('counts each subscription start against the partner rate limit HTTP uses', async () => {
    const { apiKey } = await app.partner(100);
    const socket = await open(apiKey); // the connection counts once, as a request does
    const n = 80;
    for (let i = 0; i < n; i++) socket.subscribe(`q${i}`, '{ bridgeProviders { name } }');
    const codes = () => Array.from({ length: n }, (_, i) => errorCode(socket, `q${i}`));
    await socket.waitFor(`${n} answers`, () => codes().every(Boolean));
    // 30 a window: the connection and 29 starts pass (and are refused for being queries), the rest are
    // limited.
    expect(codes().filter((c) => c === 'BAD_USER_INPUT')).toHaveLength(29);
    expect(codes().filter((c) => c === 'RATE_LIMITED')).toHaveLength(n - 29);
    expect((await http('{ bridgeProviders { name } }', apiKey)).statusCode).toBe(429);
  });

  it('refuses a frame over the HTTP body limit before reading it, as HTTP refuses the body', async () => {
    const { apiKey } = await app.partner(10);
    const query = `subscription { bridgeStatusChanged(txHash: "${txHash(1)}") { sequence } } #${'x'.repeat(BODY_LIMIT)}`;
    expect((await http(query, apiKey)).statusCode).toBe(413);
    const socket = await open(apiKey);
    socket.subscribe('big', query);
    expect((await socket.closed).code).toBe(1009); // Message Too Big
    expect(socket.of('big')).toEqual([]);
    // Just under the limit is read and answered.
    const fits = await open(apiKey);
    fits.subscribe('ok', `{ bridgeProviders { name } } #${'x'.repeat(BODY_LIMIT - 200)}`);
    await fits.waitFor('the answer', () => errorCode(fits, 'ok') !== undefined);
    expect(errorCode(fits, 'ok')).toBe('BAD_USER_INPUT');
  });

  it('refuses the same abusive documents as HTTP, with the same codes and words', async () => {
    const { id, apiKey } = await app.partner(100);
    const tx = txHash(2);
    const repeat = (n: number, text: (i: number) => string) => Array.from({ length: n }, (_, i) => text(i)).join(' ');
    const documents: Record<string, string> = {
      GRAPHQL_MAX_ALIASES: `{ ${repeat(51, (i) => `a${i}: bridgeProviders { name }`)} }`,
      'GRAPHQL_MAX_ALIASES (subscription)': `subscription { bridgeStatusChanged(txHash: "${tx}") { ${repeat(51, (i) => `a${i}: sequence`)} } }`,
      GRAPHQL_MAX_DEPTH: `{ ${'... on Query { '.repeat(25)}bridgeProviders { name }${' }'.repeat(25)} }`,
      'GRAPHQL_MAX_DEPTH (nesting)': `{ ${'... on Query { '.repeat(300)}bridgeProviders { name }${' }'.repeat(300)} }`,
      GRAPHQL_MAX_TOKENS: `{ ${repeat(1300, () => 'bridgeProviders { name }')} }`,
      'GRAPHQL_MAX_TOKENS (100 000 aliases)': `subscription { bridgeStatusChanged(txHash: "${tx}") { ${repeat(100_000, (i) => `a${i}:sequence`)} } }`,
      GRAPHQL_MAX_ROOT_FIELDS: `{ ${repeat(21, () => 'bridgeProviders { name }')} }`,
      GRAPHQL_MAX_COST: `{ ${repeat(20, (i) => `c${i}: bridgeChains { ${repeat(50, () => 'caip2Id')} }`)} }`,
    };
    const socket = await open(apiKey);
    for (const [label, query] of Object.entries(documents)) {
      const limit = label.split(' ')[0] as string;
      const over = query.length > BODY_LIMIT;
      if (over) {
        // Over the body limit too: refused before it is read, by both.
        expect((await http(query, apiKey)).statusCode, label).toBe(413);
        const big = await open(apiKey);
        big.subscribe('x', query);
        expect((await big.closed).code, label).toBe(1009);
        continue;
      }
      const res = await http(query, apiKey);
      expect(res.statusCode, label).toBe(400);
      const overHttp = res.json().errors[0];
      socket.subscribe(label, query);
      await socket.waitFor(label, () => firstError(socket, label) !== undefined);
      const overWs = firstError(socket, label);
      expect(overHttp.extensions, label).toEqual({ code: 'BAD_USER_INPUT', limit });
      expect(overWs?.extensions, label).toEqual(overHttp.extensions);
      expect(overWs?.message, label).toBe(overHttp.message);
    }
    // Nothing ran: no status looked up, no follow, nothing charged.
    expect(await app.services.db.query('select 1 from bridge_follow where partner_id = ?', [id])).toEqual([]);
    const [row] = await app.services.db.query<Record<string, number | string>>(
      'select credit_balance, credit_reserved from partner where id = ?',
      [id],
    );
    expect([Number(row?.credit_balance), Number(row?.credit_reserved)]).toEqual([100, 0]);
  });

  it('closes the socket of a revoked key within the bound HTTP allows, and starts nothing after', async () => {
    const { id, apiKey } = await app.partner(10);
    const socket = await open(apiKey);
    socket.subscribe('s', SUBSCRIPTION, { tx: txHash(3) });
    await waitFor('the subscription row', async () => {
      const rows = await app.services.db.query('select 1 from bridge_subscription where partner_id = ?', [id]);
      return rows.length === 1;
    });
    const [key] = await app.services.db.query<{ id: string }>('select id from api_key where partner_id = ?', [id]);
    expect(await revokeApiKey(app.services.db, key?.id as string)).toBe(true);
    const revokedAt = Date.now();
    const { code } = await socket.closed;
    expect(code).toBe(4403);
    // HTTP may trust a verified key for KEY_CACHE_TTL_MS; the socket is checked as often (one check's slack).
    expect(Date.now() - revokedAt).toBeLessThan(2 * KEY_CACHE_TTL_MS + 500);
    await waitFor('the release', async () => {
      const rows = await app.services.db.query('select 1 from bridge_subscription where partner_id = ?', [id]);
      return rows.length === 0;
    });
    const again = await openSocket(wsUrl, apiKey);
    sockets.push(again);
    expect((await again.closed).code).toBe(4403);
    expect((await http('{ bridgeProviders { name } }', apiKey)).statusCode).toBe(401);
  });
});
