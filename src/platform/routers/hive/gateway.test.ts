import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_REDIS_TIMEOUT_MS, startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type ChildServer, startChildServer } from '../../../../test/support/child.js';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.js';

const SECRET = randomBytes(32).toString('base64url');
const PARTNER_MAX = 30;

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string } }[];
  extensions?: { credits?: { charged: number; remaining?: number } };
}

/** Hive Gateway in its own process over the metered test subgraph in another, on one database. */
describe('Hive Gateway with cipgate rules over subgraph processes', () => {
  let database: TestDatabase;
  let app: TestApp;
  let metered: ChildServer;
  let hive: ChildServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Migrates the database and creates partners; with Redis it also shares the rate-limit counters.
    app = await startTestApp({ RATE_LIMIT_PARTNER_MAX: String(PARTNER_MAX) }, database);
    metered = await startChildServer(
      { DATABASE_URL: database.url, SUBGRAPH_NAME: 'metered', SUBGRAPH_SECRET: SECRET, SUBGRAPH_PORT: '0' },
      './test/support/child-subgraph.ts',
    );
    hive = await startChildServer(
      {
        DATABASE_URL: database.url,
        HIVE_SUBGRAPHS: 'metered',
        SUBGRAPH_URLS: `metered=${metered.url}/graphql`,
        SUBGRAPH_SECRET: SECRET,
        RATE_LIMIT_PARTNER_MAX: String(PARTNER_MAX),
        RATE_LIMIT_PUBLIC_MAX: '100000',
        RATE_LIMIT_FAILED_AUTH_MAX: '100000',
        RATE_LIMIT_REDIS_TIMEOUT_MS: EXACT_COUNT_REDIS_TIMEOUT_MS,
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : { REDIS_URL: '' }),
      },
      './test/support/child-hive.ts',
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all([hive?.stop(), metered?.stop()]);
    await app?.stop();
    await database?.drop();
  });

  const post = async (query: string, headers: Record<string, string> = {}, url = `${hive.url}/graphql`) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as GraphqlBody };
  };

  const books = async (partnerId: string) => {
    const read = async () =>
      (
        await app.services.db.query<Record<string, number | string>>(
          'select credit_balance as b, credit_usage as u, credit_reserved as r from partner where id = ?',
          [partnerId],
        )
      )[0];
    // The gateway settles once each answer was written, on its own clock.
    await expect.poll(async () => Number((await read())?.r), { timeout: 5000 }).toBe(0);
    const row = await read();
    const charges = await app.services.db.query<{ credits: number | string }>(
      "select credits from ledger_entry where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
    return { balance: Number(row?.b), usage: Number(row?.u), charges: charges.map((c) => Number(c.credits)) };
  };

  it('charges a paid field answered through Hive once, and says so in the answer', async () => {
    const { id, apiKey } = await app.partner(5);
    const res = await post('{ meteredEcho(text: "via hive") }', { 'x-api-key': apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ meteredEcho: 'via hive' });
    expect(res.body.extensions?.credits).toEqual({ charged: 1, remaining: 4 });
    expect(await books(id)).toEqual({ balance: 4, usage: 1, charges: [1] });
  });

  it('refuses with cipgate codes, charging nothing: no key, a bad key, too few credits, failed fields', async () => {
    const { id, apiKey } = await app.partner(1);
    const noKey = await post('{ meteredTwo }');
    expect(noKey.status).toBe(401);
    expect(noKey.body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    expect(noKey.body.errors?.[0]?.message).toContain('meteredTwo');

    const badKey = await post('{ meteredTwo }', { 'x-api-key': 'cg_live_not_a_key' });
    expect(badKey.status).toBe(401);
    expect(badKey.body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');

    const poor = await post('{ meteredTwo }', { 'x-api-key': apiKey });
    expect(poor.status).toBe(400);
    expect(poor.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_CREDITS');
    expect(poor.body.errors?.[0]?.message).toMatch(/meteredTwo requires 2 credits, but the balance available is 1/);

    expect(await books(id)).toEqual({ balance: 1, usage: 0, charges: [] });

    const rich = await app.partner(5);
    const failed = await post('{ meteredBug }', { 'x-api-key': rich.apiKey });
    expect(failed.body.errors?.[0]).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    const input = await post('{ meteredFails(how: "input") }', { 'x-api-key': rich.apiKey });
    expect(input.body.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(await books(rich.id)).toEqual({ balance: 5, usage: 0, charges: [] });
  });

  it('never overspends: 20 parallel 2-credit calls on a 9-credit balance succeed exactly 4 times', async () => {
    const { id, apiKey } = await app.partner(9);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('{ meteredTwo }', { 'x-api-key': apiKey })),
    );
    const ok = answers.filter((a) => a.status === 200 && a.body.data?.meteredTwo === 2);
    const refused = answers.filter((a) => a.body.errors?.[0]?.extensions.code === 'INSUFFICIENT_CREDITS');
    expect(ok).toHaveLength(4);
    expect(refused).toHaveLength(16);
    const { balance, usage, charges } = await books(id);
    expect({ balance, usage }).toEqual({ balance: 1, usage: 8 });
    expect(balance + usage).toBe(9);
    expect(charges).toEqual([2, 2, 2, 2]);
  });

  it('holds the partner rate limit (shared with cipgate itself when Redis is configured)', async () => {
    const { apiKey } = await app.partner(0);
    const free = '{ __typename }';
    let sent = 0;
    if (process.env.REDIS_URL) {
      // Half the budget spent on cipgate's own gateway counts on Hive too: one shared counter.
      for (; sent < PARTNER_MAX / 2; sent++) {
        const res = await app.http.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'x-api-key': apiKey },
          payload: { query: free },
        });
        expect(res.statusCode).toBe(200);
      }
    }
    for (; sent < PARTNER_MAX; sent++) expect((await post(free, { 'x-api-key': apiKey })).status).toBe(200);
    const over = await post(free, { 'x-api-key': apiKey });
    expect(over.status).toBe(429);
    expect(over.body.errors?.[0]?.extensions.code).toBe('RATE_LIMITED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('signs subgraph fetches: the subgraph answers Hive but a direct call without the token is 401', async () => {
    const direct = await post('{ meteredEcho(text: "free?") }', {}, `${metered.url}/graphql`);
    expect(direct.status).toBe(401);
    expect(direct.body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    const { apiKey } = await app.partner(0);
    const viaHive = await post('{ meteredEcho(text: "free?") }', { 'x-api-key': apiKey });
    expect(viaHive.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_CREDITS');
  });

  /** One POST over a raw socket, so the answer's framing headers are seen as sent, not as a client mends them. */
  const rawPost = (query: string, headers: Record<string, string>) =>
    new Promise<{ head: string; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(hive.url);
      const body = JSON.stringify({ query });
      const socket = connect(Number(port), hostname, () => {
        const lines = [
          'POST /graphql HTTP/1.1',
          `Host: ${hostname}:${port}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
          'Connection: close',
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        ];
        socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
      });
      const chunks: Buffer[] = [];
      const done = () => {
        socket.destroy();
        const text = Buffer.concat(chunks).toString('utf8');
        const end = text.indexOf('\r\n\r\n');
        resolve({ head: text.slice(0, end), body: text.slice(end + 4) });
      };
      // The answer is whole once the server closes, or once nothing more came for a while (a server
      // that keeps the connection open).
      let idle = setTimeout(done, 2000);
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        clearTimeout(idle);
        idle = setTimeout(done, 500);
      });
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(idle);
        done();
      });
    });

  it('frames multipart and event-stream answers validly: never Content-Length and chunked together', async () => {
    const { apiKey } = await app.partner(5);
    for (const accept of ['multipart/mixed', 'text/event-stream']) {
      const { head, body } = await rawPost('{ meteredEcho(text: "framed") }', { 'x-api-key': apiKey, Accept: accept });
      expect(head, accept).toMatch(/^HTTP\/1\.1 200/);
      const lengths = head.match(/^content-length:/gim) ?? [];
      const chunked = /^transfer-encoding:\s*chunked/im.test(head);
      // RFC 9112 §6.1: a sender must not send Content-Length with Transfer-Encoding.
      expect(lengths.length + (chunked ? 1 : 0), `${accept}:\n${head}`).toBe(1);
      expect(head).toMatch(new RegExp(`^content-type: ${accept}`, 'im'));
      expect(body).toContain('framed');
      // Node's strict parser reads the answer as sent.
      const res = await fetch(`${hive.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, accept },
        body: JSON.stringify({ query: '{ meteredEcho(text: "strict") }' }),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('strict');
    }
  });
});
