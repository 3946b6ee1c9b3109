import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE } from '../../../test/fixtures/mns/index.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../../../test/support/database.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from './unavailable.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The documented bound: every request answers 503 within the statement timeout + 200 ms (pg's query_timeout). */
const STATEMENT_TIMEOUT_MS = 1000;
/** What each probe is held to: the bound, with room for a loaded 2-core box. */
const FAST_MS = STATEMENT_TIMEOUT_MS + 500;

async function timed<T>(fn: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await fn();
  return { res, ms: performance.now() - started };
}

const partnerStats = (app: TestApp, apiKey: string) =>
  app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
const publicName = (app: TestApp) =>
  app.http.inject({
    method: 'GET',
    url: '/api/public/identity/name',
    query: { address: ALICE, caip2Id: 'move-mvmt:126' },
  });
const graphql = (app: TestApp, query: string, apiKey?: string) =>
  app.http.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    payload: { query },
  });
const PRIMARY_NAME = `{ primaryName(address: "${ALICE}", caip2Id: "move-mvmt:126") { name } }`;

/** Every interface answers 503 in its own shape, quickly. */
async function expectUnavailableEverywhere(app: TestApp, apiKey: string) {
  const [partner, pub, gql, gqlPartner, ready] = await Promise.all([
    timed(() => partnerStats(app, apiKey)),
    timed(() => publicName(app)),
    timed(() => graphql(app, PRIMARY_NAME)),
    timed(() => graphql(app, '{ stats { creditBalance } }', apiKey)),
    timed(() => app.http.inject({ method: 'GET', url: '/readyz' })),
  ]);
  expect(partner.res.statusCode, partner.res.body).toBe(503);
  expect(partner.res.json()).toEqual({
    statusCode: 503,
    message: DATABASE_UNAVAILABLE_MESSAGE,
    error: 'Service Unavailable',
  });
  expect(pub.res.statusCode, pub.res.body).toBe(503);
  expect(pub.res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
  expect(gql.res.json().errors[0]).toMatchObject({
    message: DATABASE_UNAVAILABLE_MESSAGE,
    extensions: { code: 'UPSTREAM_UNAVAILABLE' },
  });
  expect(gql.res.statusCode, gql.res.body).toBe(503);
  expect(gqlPartner.res.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
  expect(gqlPartner.res.statusCode, gqlPartner.res.body).toBe(503);
  expect(ready.res.statusCode).toBe(503);
  // An outage is worth retrying soon, and every interface says when.
  for (const { res } of [partner, pub, gql, gqlPartner]) expect(res.headers['retry-after']).toBe('5');
  // The readiness probe has its own bound too (~1 s): every probe is held to the statement timeout + 500 ms.
  const timings = {
    partner: partner.ms,
    public: pub.ms,
    graphql: gql.ms,
    graphqlPartner: gqlPartner.ms,
    readyz: ready.ms,
  };
  for (const ms of Object.values(timings)) expect(ms, JSON.stringify(timings)).toBeLessThan(FAST_MS);
  return timings;
}

/** Back to normal once the database is: no restart needed. */
async function expectRecovered(app: TestApp, apiKey: string) {
  const deadline = Date.now() + 10_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await partnerStats(app, apiKey)).statusCode;
    if (status === 200) break;
    await sleep(200);
  }
  expect(status).toBe(200);
  expect((await app.http.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  expect((await publicName(app)).statusCode).not.toBe(503);
}

describe.skipIf(!usingPostgres())('PostgreSQL unreachable, stalled, out of connections or slow', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  let apiKey: string;
  let partnerId: string;
  const balance = async () =>
    Number(
      (
        await app.services.db.query<{ b: string }>('select credit_balance as b from partner where id = ?', [partnerId])
      )[0]?.b,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    app = await startTestApp(
      {
        DATABASE_URL: proxy.url(database.url),
        DATABASE_POOL_MAX: '3',
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      },
      database,
      {
        subgraphs: withMetered(),
      },
    );
    ({ apiKey, id: partnerId } = await app.partner(10));
  });
  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it('refusing connections: 503 in every interface, fast and free, then recovers', async () => {
    await proxy.refuse();
    try {
      const timings = await expectUnavailableEverywhere(app, apiKey);
      console.info('refused: ms to answer', timings);
      const paid = await graphql(app, '{ meteredEcho(text: "x") }', apiKey);
      expect(paid.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      await proxy.resume();
    }
    await expectRecovered(app, apiKey);
    expect(await balance()).toBe(10);
  });

  it('stalled (accepts, never answers): every probe 503 within the statement timeout + 500 ms, then recovers', async () => {
    // Warm connections exist in the pool: the stall hits them mid-query as well as new connections.
    expect((await partnerStats(app, apiKey)).statusCode).toBe(200);
    proxy.stall();
    try {
      const timings = await expectUnavailableEverywhere(app, apiKey);
      console.info('stalled: ms to answer', timings);
      const paid = await timed(() => graphql(app, '{ meteredEcho(text: "x") }', apiKey));
      expect(paid.res.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(paid.ms).toBeLessThan(FAST_MS);
    } finally {
      await proxy.resume();
    }
    await expectRecovered(app, apiKey);
    expect(await balance()).toBe(10);
  });

  it('out of connections: a request that cannot get one within the acquire timeout is a fast 503', async () => {
    // Three transactions hold the whole pool (DATABASE_POOL_MAX=3) for longer than the acquire timeout.
    let release!: () => void;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: 3 }, () =>
      app.services.db.transaction(async (tx) => {
        await tx.query('select 1 as ok');
        await hold;
      }),
    );
    await sleep(200);
    try {
      const { res, ms } = await timed(() => partnerStats(app, apiKey));
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
      expect(ms).toBeLessThan(FAST_MS);
    } finally {
      release();
      await Promise.all(holders);
    }
    expect((await partnerStats(app, apiKey)).statusCode).toBe(200);
  });

  it('a statement blocked past the statement timeout is cancelled by the server: 503, then recovers', async () => {
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      // The partner row too: a key verified a moment ago may be answered from the 1 s key cache.
      await locker.query('lock table api_key, partner in access exclusive mode');
      const { res, ms } = await timed(() => partnerStats(app, apiKey));
      expect(res.statusCode, res.body).toBe(503);
      expect(ms).toBeLessThan(FAST_MS);
      await locker.query('rollback');
    } finally {
      await locker.end();
    }
    expect((await partnerStats(app, apiKey)).statusCode).toBe(200);
  });
});

/**
 * node:sqlite waits for another process's lock synchronously: each writer that meets it (background jobs
 * too) holds the event loop for the busy timeout, so this bound counts writers, not one statement.
 */
const SQLITE_FAST_MS = 3000;

describe.skipIf(usingPostgres())('SQLite write lock held by another process', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(
      { DATABASE_ACQUIRE_TIMEOUT_MS: '300', DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) },
      undefined,
      { subgraphs: withMetered() },
    );
  });
  afterAll(() => app?.stop());

  it('SQLITE_BUSY after the busy timeout is a fast, free 503, then recovers', async () => {
    const { apiKey, id } = await app.partner(10);
    const other = new DatabaseSync(app.database.url.slice('file:'.length));
    try {
      other.exec('begin immediate');
      const { res, ms } = await timed(() => graphql(app, '{ meteredEcho(text: "x") }', apiKey));
      expect(res.json().errors[0]).toMatchObject({
        message: DATABASE_UNAVAILABLE_MESSAGE,
        extensions: { code: 'UPSTREAM_UNAVAILABLE' },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(ms).toBeLessThan(SQLITE_FAST_MS);
      other.exec('rollback');
    } finally {
      other.close();
    }
    const ok = await graphql(app, '{ meteredEcho(text: "x") }', apiKey);
    expect(ok.json()).toEqual({ data: { meteredEcho: 'x' }, extensions: { credits: { charged: 1, remaining: 9 } } });
    const balance = async () =>
      Number(
        (await app.services.db.query<{ b: number }>('select credit_balance as b from partner where id = ?', [id]))[0]
          ?.b,
      );
    // Only the answered request was charged (settled once the answer was written, on its own clock).
    await expect.poll(balance, { timeout: 5000 }).toBe(10 - 1);
  });
});
