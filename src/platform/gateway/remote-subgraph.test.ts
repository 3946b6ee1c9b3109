import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { type ChildServer, startChildServer } from '../../../test/support/child.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { getPartner } from '../../../test/support/features.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { signGatewayToken } from './subgraph-token.js';

const SECRET = randomBytes(32).toString('base64url');

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string } }[];
}

const portOf = (child: ChildServer) => new URL(child.url).port;

/** The connection outcome on one address: whether anything listens there. */
const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket: Socket = connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

describe('subgraphs served by their own processes', () => {
  let database: TestDatabase;
  let accounts: ChildServer;
  let metered: ChildServer;
  let meteredLog = '';
  let app: TestApp;

  const startSubgraph = async (name: string, port = '0', logLevel = 'silent') =>
    startChildServer(
      {
        DATABASE_URL: database.url,
        SUBGRAPH_NAME: name,
        SUBGRAPH_SECRET: SECRET,
        SUBGRAPH_PORT: port,
        LOG_LEVEL: logLevel,
      },
      './test/support/child-subgraph.ts',
    );

  const graphql = (query: string, headers: Record<string, string> = {}) =>
    app.http.inject({ method: 'POST', url: '/graphql', headers, payload: { query } });

  const direct = async (child: ChildServer, query: string, headers: Record<string, string>) => {
    const res = await fetch(`${child.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as GraphqlBody };
  };

  const balanceOf = async (partnerId: string) => {
    await app.services.ledger.whenSettled(partnerId);
    const partner = await getPartner(app.services.db, partnerId);
    return { balance: partner?.creditBalance, usage: partner?.creditUsage, reserved: partner?.creditReserved };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // Migrate first, so the processes do not race to create the schema.
    const seed = await startTestApp({}, database);
    await seed.stop();
    [accounts, metered] = await Promise.all([startSubgraph('accounts'), startSubgraph('metered', '0', 'info')]);
    metered.process.stdout?.on('data', (chunk) => {
      meteredLog += chunk;
    });
    app = await startTestApp(
      {
        SUBGRAPH_URLS: `accounts=${accounts.url}/graphql,metered=${metered.url}/graphql`,
        SUBGRAPH_SECRET: SECRET,
      },
      database,
      { subgraphs: withMetered() },
    );
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([accounts?.stop(), metered?.stop()]);
    await database?.drop();
  });

  it('answers through the gateway with the caller named by the gateway token', async () => {
    const { apiKey, email } = await app.partner(7, 'Remote');
    const res = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email, name: 'Remote', creditBalance: 7, creditUsage: 0 });
  });

  it('charges a paid field answered by a remote subgraph exactly once', async () => {
    const { id, apiKey } = await app.partner(5);
    const res = await graphql('{ meteredEcho(text: "over the wire") }', {
      'x-api-key': apiKey,
      'x-request-id': 'remote-trace-42',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { meteredEcho: 'over the wire' },
      extensions: { credits: { charged: 1, remaining: 4 } },
    });
    expect(await balanceOf(id)).toEqual({ balance: 4, usage: 1, reserved: 0 });
    // The subgraph's own log line carries the gateway's request id.
    await expect.poll(() => meteredLog, { timeout: 5000 }).toContain('"reqId":"remote-trace-42"');
  });

  it('refuses every caller but the gateway, whatever key it holds', async () => {
    const { id, apiKey } = await app.partner(5);
    const query = '{ meteredEcho(text: "free?") }';
    const claims = { partnerId: id, keyId: null, requestId: 'direct' };
    const forged = signGatewayToken(randomBytes(32).toString('hex'), claims);
    const expired = signGatewayToken(SECRET, claims, Date.now() - 61_000);
    const valid = signGatewayToken(SECRET, claims);
    const [payload, mac] = valid.split('.') as [string, string];
    const widened = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), exp: 9_999_999_999 }),
    ).toString('base64url');
    const attempts: Record<string, string>[] = [
      {},
      { 'x-api-key': apiKey },
      { 'x-cipgate-gateway': forged, 'x-api-key': apiKey },
      { 'x-cipgate-gateway': expired },
      { 'x-cipgate-gateway': `${widened}.${mac}` },
      { 'x-cipgate-gateway': 'garbage' },
    ];
    for (const headers of attempts) {
      const { status, body } = await direct(metered, query, headers);
      expect(status, JSON.stringify(headers)).toBe(401);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    }
    // The same request with a token the gateway would have signed is answered: the token is what decides.
    const signed = await direct(metered, query, { 'x-cipgate-gateway': valid });
    expect(signed).toEqual({ status: 200, body: { data: { meteredEcho: 'free?' } } });
    expect(await balanceOf(id)).toEqual({ balance: 5, usage: 0, reserved: 0 });

    // The partner comes from the token, loaded by id, with no key involved.
    const { id: other, email } = await app.partner(3, 'Token Named');
    const token = signGatewayToken(SECRET, { partnerId: other, keyId: 'k', requestId: 'direct-2' });
    const stats = await direct(accounts, '{ stats { email creditBalance } }', { 'x-cipgate-gateway': token });
    expect(stats).toEqual({ status: 200, body: { data: { stats: { email, creditBalance: 3 } } } });

    // The gateway still works after all that.
    const res = await graphql(query, { 'x-api-key': apiKey });
    expect(res.json()).toEqual({
      data: { meteredEcho: 'free?' },
      extensions: { credits: { charged: 1, remaining: 4 } },
    });
    expect(await balanceOf(id)).toEqual({ balance: 4, usage: 1, reserved: 0 });
  });

  it('does not leak stack traces or the schema from a subgraph', async () => {
    const token = signGatewayToken(SECRET, { partnerId: null, keyId: null, requestId: 'direct-3' });
    const bug = await direct(metered, '{ meteredBug }', { 'x-cipgate-gateway': token });
    expect(JSON.stringify(bug.body)).not.toMatch(/stacktrace|at .*\.ts/);
    const introspection = await direct(metered, '{ __schema { types { name } } }', { 'x-cipgate-gateway': token });
    expect(introspection.body.data).toBeUndefined();
    expect(introspection.body.errors?.[0]?.message).toMatch(/introspection/i);
  });

  it('listens on loopback only by default', async () => {
    const port = Number(portOf(metered));
    expect(await reachable('127.0.0.1', port)).toBe(true);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    // This machine has another interface (checked, so the assertion below is not vacuous).
    expect(external).toBeDefined();
    expect(await reachable(external as string, port)).toBe(false);
  });

  it('answers a free 503 while a subgraph is down, says not ready, and recovers when it is back', async () => {
    const { id, apiKey } = await app.partner(5);
    const meteredPort = portOf(metered);
    const accountsPort = portOf(accounts);
    await Promise.all([metered.stop(), accounts.stop()]);

    const rest = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(rest.statusCode).toBe(503);
    expect(rest.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(rest.headers['x-request-id']).toBeDefined();

    const paid = await graphql('{ meteredEcho(text: "nobody home") }', { 'x-api-key': apiKey });
    const body = paid.json() as GraphqlBody;
    expect(body.data?.meteredEcho ?? null).toBeNull();
    expect(body.errors?.[0]?.extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(await balanceOf(id)).toEqual({ balance: 5, usage: 0, reserved: 0 });

    const ready = await app.http.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ subgraphs: expect.arrayContaining(['accounts', 'metered']) });

    [metered, accounts] = await Promise.all([
      startSubgraph('metered', meteredPort),
      startSubgraph('accounts', accountsPort),
    ]);
    expect((await app.http.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const back = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(back.statusCode).toBe(200);
    const again = await graphql('{ meteredEcho(text: "back") }', { 'x-api-key': apiKey });
    expect(again.json()).toEqual({
      data: { meteredEcho: 'back' },
      extensions: { credits: { charged: 1, remaining: 4 } },
    });
    expect(await balanceOf(id)).toEqual({ balance: 4, usage: 1, reserved: 0 });
  }, 120_000);

  describe('a subgraph that accepts connections and never answers', () => {
    let stalled: Server;
    const sockets: Socket[] = [];
    let gateway: TestApp;
    beforeAll(async () => {
      stalled = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
      const { port } = stalled.address() as { port: number };
      gateway = await startTestApp(
        {
          SUBGRAPH_URLS: `accounts=http://127.0.0.1:${port}/graphql`,
          SUBGRAPH_SECRET: SECRET,
          SUBGRAPH_TIMEOUT_MS: '500',
        },
        database,
      );
    });
    afterAll(async () => {
      await gateway?.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => stalled?.close(resolve));
    });

    it('gives up within the subgraph timeout with a 503, and /readyz says so within its own', async () => {
      const { apiKey } = await gateway.partner(1);
      let started = Date.now();
      const res = await gateway.http.inject({
        method: 'GET',
        url: '/partners/stats',
        headers: { 'x-api-key': apiKey },
      });
      expect(res.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(2000);
      started = Date.now();
      const ready = await gateway.http.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ subgraphs: ['accounts'] });
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });
});
