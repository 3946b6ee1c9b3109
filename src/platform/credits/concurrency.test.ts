import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { startChildServer } from '../../../test/support/child.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';

interface Outcome {
  ok: number;
  refused: number;
  other: number;
}

const tally = (codes: (string | undefined)[]): Outcome => ({
  ok: codes.filter((c) => c === undefined).length,
  refused: codes.filter((c) => c === 'INSUFFICIENT_CREDITS').length,
  other: codes.filter((c) => c !== undefined && c !== 'INSUFFICIENT_CREDITS').length,
});

async function checkBooks(app: TestApp, partnerId: string, granted: number, price: number, successes: number) {
  // Charges settle once each answer has been written; other processes settle on their own clock.
  await app.services.ledger.whenSettled(partnerId);
  const reserved = async () =>
    Number(
      (
        await app.services.db.query<{ r: number | string }>('select credit_reserved as r from partner where id = ?', [
          partnerId,
        ])
      )[0]?.r,
    );
  await expect.poll(reserved, { timeout: 5000 }).toBe(0);
  const [row] = await app.services.db.query<Record<string, number | string>>(
    'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
    [partnerId],
  );
  const charges = await app.services.db.query<{ credits: number | string }>(
    "select credits from ledger_entry where partner_id = ? and kind = 'charge'",
    [partnerId],
  );
  expect(Number(row?.credit_balance) + Number(row?.credit_usage)).toBe(granted);
  expect(Number(row?.credit_reserved)).toBe(0);
  expect(Number(row?.credit_usage)).toBe(successes * price);
  // One ledger row per success, none per refusal or failure.
  expect(charges).toHaveLength(successes);
  expect(charges.every((c) => Number(c.credits) === price)).toBe(true);
}

describe('credits under concurrency', () => {
  let app: TestApp;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({}, database, { subgraphs: withMetered() });
  });
  afterAll(async () => {
    await app.stop();
    await database.drop();
  });

  it('never overspends: 40 parallel 2-credit calls on a 9-credit balance succeed exactly 4 times', async () => {
    const { id, apiKey } = await app.partner(9);
    const codes = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const res = await app.http.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          payload: { query: '{ meteredTwo }' },
        });
        return res.json().errors?.[0]?.extensions?.code as string | undefined;
      }),
    );
    expect(tally(codes)).toEqual({ ok: 4, refused: 36, other: 0 });
    await checkBooks(app, id, 9, 2, 4);
  });

  it('charges nothing for failures under contention', async () => {
    // 10 × 1 credit + 10 × 3 credits held at once: exactly what the balance covers.
    const { id, apiKey } = await app.partner(40);
    const codes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await app.http.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          payload: { query: i % 2 ? '{ meteredFails }' : '{ meteredEcho(text: "x") }' },
        });
        return res.json().errors?.[0]?.extensions?.code as string | undefined;
      }),
    );
    expect(tally(codes)).toEqual({ ok: 10, refused: 0, other: 10 });
    await checkBooks(app, id, 40, 1, 10);
  });

  it('holds across two server processes sharing the database', async () => {
    const { id, apiKey } = await app.partner(11);
    const env: Record<string, string> = { DATABASE_URL: database.url, RATE_LIMIT_PARTNER_MAX: '100000' };
    const servers = await Promise.all([startChildServer(env), startChildServer(env)]);
    try {
      const codes = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const server = servers[i % 2] as (typeof servers)[number];
          const res = await fetch(`${server.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
            body: JSON.stringify({ query: '{ meteredTwo }' }),
          });
          const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
          return body.errors?.[0]?.extensions?.code;
        }),
      );
      expect(tally(codes)).toEqual({ ok: 5, refused: 25, other: 0 });
      await checkBooks(app, id, 11, 2, 5);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });

  it('releases the hold of a server process killed mid-request, once the hold times out', async () => {
    const { id, apiKey } = await app.partner(4);
    const server = await startChildServer({ DATABASE_URL: database.url, CREDIT_RESERVATION_TTL_MS: '1000' });
    try {
      void fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ query: '{ meteredSlow(ms: 30000) }' }),
      }).catch(() => undefined);
      await expect.poll(() => app.services.ledger.available(id), { timeout: 10_000 }).toBe(3);
      server.process.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await app.services.ledger.sweepExpired()).toBeGreaterThanOrEqual(1);
      expect(await app.services.ledger.available(id)).toBe(4);
      await checkBooks(app, id, 4, 1, 0);
    } finally {
      await server.stop();
    }
  });

  it('releases the hold of a request whose process died, after the timeout', async () => {
    const { id } = await app.partner(5);
    const held = await app.services.ledger.reserve(id, 3, 'crashed request', 'req-crash');
    expect(held.ok).toBe(true);
    expect(await app.services.ledger.available(id)).toBe(2);
    expect(await app.services.ledger.sweepExpired(new Date())).toBe(0);
    expect(await app.services.ledger.sweepExpired(new Date(Date.now() + 10 * 60_000))).toBe(1);
    expect(await app.services.ledger.available(id)).toBe(5);
    await checkBooks(app, id, 5, 1, 0);
  });
});
