import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Query, Resolver } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { createPartner, subgraphs } from '../../../test/support/features.js';
import { postGraphql } from '../../../test/support/graphql.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { useTestApp } from '../../../test/support/use-app.js';
import { buildSupergraph } from '../gateway/supergraph.js';
import { UnpricedFieldError } from './prices.js';

@Resolver()
class UnpricedResolver {
  @Query(() => String)
  forgotten(): string {
    return 'free by mistake';
  }
}

describe('prices fail closed', () => {
  it('a root field without @credits stops composition, naming the field', async () => {
    await expect(buildSupergraph([...subgraphs, { name: 'careless', resolvers: [UnpricedResolver] }])).rejects.toThrow(
      UnpricedFieldError,
    );
    await expect(buildSupergraph([...subgraphs, { name: 'careless', resolvers: [UnpricedResolver] }])).rejects.toThrow(
      /Query\.forgotten/,
    );
  });
});

describe('exactly one charge per delivered answer', () => {
  const app = useTestApp({}, { subgraphs: withMetered() });

  const gql = (apiKey: string, query: string, headers: Record<string, string> = {}) =>
    postGraphql(app, { query }, apiKey, headers);
  type Settle = typeof app.services.ledger.settle;
  /**
   * Runs `body` with the ledger's settle replaced by `wrap(real, n)` on its n-th call (from 1), so a
   * test can make one call fail the way a database does; answers how many calls there were.
   */
  const withSettle = async (wrap: (real: Settle, call: number) => Settle, body: () => Promise<void>) => {
    const ledger = app.services.ledger;
    const real: Settle = ledger.settle.bind(ledger);
    let calls = 0;
    ledger.settle = (...args) => {
      calls += 1;
      return wrap(real, calls)(...args);
    };
    try {
      await body();
    } finally {
      ledger.settle = real;
    }
    return calls;
  };
  /** Balance, usage, holds and ledger of a partner once its settlements in flight are done. */
  const books = async (id: string) => {
    await app.services.ledger.whenSettled(id);
    const [p] = await app.services.db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
      [id],
    );
    const rows = await app.services.db.query<{ kind: string; credits: number | string }>(
      'select kind, credits from ledger_entry where partner_id = ?',
      [id],
    );
    const sum = (kind: string) => rows.filter((r) => r.kind === kind).reduce((n, r) => n + Number(r.credits), 0);
    const balance = Number(p?.credit_balance);
    const usage = Number(p?.credit_usage);
    // The invariant, checked every time the books are read.
    expect(balance + usage).toBe(sum('grant'));
    expect(usage).toBe(sum('charge'));
    return {
      balance,
      usage,
      reserved: Number(p?.credit_reserved),
      charges: rows.filter((r) => r.kind === 'charge').length,
    };
  };

  it('charges a field merged under one response key once', async () => {
    const { id, apiKey } = await app.partner(1);
    const res = await gql(apiKey, '{ meteredEcho(text: "x") }');
    expect(res.statusCode).toBe(200);
    const merged = await gql(apiKey, '{ meteredEcho(text: "x") meteredEcho(text: "x") }');
    // The first call spent the only credit: a merged repeat must ask for 1, not 2, and be refused for 1.
    expect(merged.json().errors[0].extensions).toMatchObject({ code: 'INSUFFICIENT_CREDITS', required: 1 });
    expect(await books(id)).toMatchObject({ balance: 0, usage: 1, reserved: 0, charges: 1 });
  });

  it('charges a fragment spread three times once, and a merged field on a balance of 1', async () => {
    const { id, apiKey } = await app.partner(3);
    const spread = await gql(apiKey, '{ ...F ...F ...F } fragment F on Query { meteredTwo }');
    expect(spread.json()).toEqual({ data: { meteredTwo: 2 }, extensions: { credits: { charged: 2, remaining: 1 } } });
    expect(await books(id)).toMatchObject({ balance: 1, usage: 2, charges: 1 });
    const merged = await gql(apiKey, '{ meteredEcho(text: "m") ... on Query { meteredEcho(text: "m") } }');
    expect(merged.json()).toEqual({
      data: { meteredEcho: 'm' },
      extensions: { credits: { charged: 1, remaining: 0 } },
    });
    expect(await books(id)).toMatchObject({ balance: 0, usage: 3, charges: 2 });
  });

  it('does not charge a field skipped by @skip/@include', async () => {
    const { id, apiKey } = await app.partner(5);
    const res = await postGraphql(
      app,
      {
        query: 'query ($no: Boolean!) { meteredTwo @include(if: $no) meteredEcho(text: "s") @skip(if: $no) }',
        variables: { no: false },
      },
      apiKey,
    );
    expect(res.json()).toEqual({ data: { meteredEcho: 's' }, extensions: { credits: { charged: 1, remaining: 4 } } });
    expect(await books(id)).toMatchObject({ balance: 4, usage: 1 });
    // The same operation with the other value: what it charges follows the variables of each request.
    const flipped = await postGraphql(
      app,
      {
        query: 'query ($no: Boolean!) { meteredTwo @include(if: $no) meteredEcho(text: "s") @skip(if: $no) }',
        variables: { no: true },
      },
      apiKey,
    );
    expect(flipped.json()).toEqual({ data: { meteredTwo: 2 }, extensions: { credits: { charged: 2, remaining: 2 } } });
    expect(await books(id)).toMatchObject({ balance: 2, usage: 3 });
  });

  it('charges the sandbox example once: { bridgeChains { name } bridgeChains { caip2Id } }', async () => {
    const { partner, key } = await createPartner(app.services.db, {
      name: 'Sandbox',
      email: `sbx-${Date.now()}@example.com`,
      credits: 1,
      sandbox: true,
    });
    const res = await gql(key.apiKey, '{ bridgeChains { name } bridgeChains { caip2Id } }');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.bridgeChains.length).toBeGreaterThan(0);
    expect(await books(partner.id)).toMatchObject({ balance: 0, usage: 1 });
  });

  it('refuses HEAD on a paid REST route with 405 and charges nothing; HEAD on a free route works', async () => {
    const { id, apiKey } = await app.partner(5);
    for (const url of ['/partners/bridge/chains', '/partners/cip/identity/search?query=alice']) {
      const head = await app.http.inject({ method: 'HEAD', url, headers: { 'x-api-key': apiKey } });
      expect(head.statusCode).toBe(405);
      expect(head.headers.allow).toBe('GET');
    }
    const stats = await app.http.inject({ method: 'HEAD', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(stats.statusCode).toBe(200);
    const graphqlHead = await app.http.inject({
      method: 'HEAD',
      url: '/graphql?query=%7BmeteredTwo%7D',
      headers: { 'x-api-key': apiKey, 'apollo-require-preflight': 'true' },
    });
    expect(graphqlHead.statusCode).toBeGreaterThanOrEqual(400);
    expect(await books(id)).toMatchObject({ balance: 5, usage: 0, reserved: 0 });
  });

  it('does not charge a client that hangs up before the answer is written', async () => {
    const { id, apiKey } = await app.partner(10);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.http.server.address() as AddressInfo;
    const body = JSON.stringify({ query: '{ meteredSlow(ms: 400) }' });
    const abandoned = Array.from(
      { length: 3 },
      () =>
        new Promise<void>((resolve) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port,
              path: '/graphql',
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
            },
            () => resolve(),
          );
          req.on('error', () => resolve());
          req.end(body);
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 100);
        }),
    );
    await Promise.all(abandoned);
    // The resolvers finish after the hang-ups; wait for them and their settlements.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await books(id)).toMatchObject({ balance: 10, usage: 0, reserved: 0, charges: 0 });
    // The same call, waited for, is charged.
    const answered = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body,
    });
    expect(await answered.json()).toEqual({
      data: { meteredSlow: 'slow' },
      extensions: { credits: { charged: 1, remaining: 9 } },
    });
    expect(await books(id)).toMatchObject({ balance: 9, usage: 1, reserved: 0, charges: 1 });
  });

  it('holds nothing for a client that hung up while its key was being checked', async () => {
    const { id, apiKey } = await app.partner(10);
    await app.http.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const { port } = app.http.server.address() as AddressInfo;
    // The key check ends after the client is gone, so delivery tracking starts on a closed response.
    const limits = app.http.rateLimits;
    const partnerLimit = limits.partner.bind(limits);
    limits.partner = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return partnerLimit(...args);
    };
    try {
      await new Promise<void>((resolve) => {
        // A GET: a request with a body would fail reading it from the closed connection and run nothing.
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          path: '/partners/cip/identity/search?query=nobody',
          headers: { 'x-api-key': apiKey },
        });
        req.on('error', () => resolve());
        req.end();
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 50);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      limits.partner = partnerLimit;
    }
    expect(await books(id)).toMatchObject({ balance: 10, usage: 0, reserved: 0, charges: 0 });
  });

  it('retries a settlement the database refused, and charges exactly once', async () => {
    const { id, apiKey } = await app.partner(10);
    const refuseFirst = (real: Settle, call: number): Settle =>
      call === 1
        ? async () => {
            throw Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
          }
        : real;
    const calls = await withSettle(refuseFirst, async () => {
      const res = await gql(apiKey, '{ meteredTwo }');
      expect(res.json()).toEqual({ data: { meteredTwo: 2 }, extensions: { credits: { charged: 2, remaining: 8 } } });
      expect(await books(id)).toMatchObject({ balance: 8, usage: 2, reserved: 0, charges: 1 });
    });
    expect(calls).toBe(2);
  });

  it('does not charge twice when a settlement committed but its reply was lost', async () => {
    const { id, apiKey } = await app.partner(10);
    const loseFirstReply = (real: Settle, call: number): Settle =>
      call === 1
        ? async (...args) => {
            await real(...args);
            throw new Error('Connection terminated unexpectedly');
          }
        : real;
    const calls = await withSettle(loseFirstReply, async () => {
      expect((await gql(apiKey, '{ meteredTwo meteredEcho(text: "l") }')).statusCode).toBe(200);
      expect(await books(id)).toMatchObject({ balance: 7, usage: 3, reserved: 0, charges: 2 });
    });
    expect(calls).toBe(2);
  });
});

describe('Idempotency-Key', () => {
  let app: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    app = await startTestApp({}, undefined, { subgraphs: withMetered() });
    // A second process on the same database: records must hold across processes.
    second = await startTestApp({}, app.database, { subgraphs: withMetered() });
  });
  afterAll(async () => {
    await second.stop();
    await app.stop();
  });

  const gql = (target: TestApp, apiKey: string, query: string, key?: string) =>
    postGraphql(target, { query }, apiKey, key === undefined ? {} : { 'idempotency-key': key });
  const usage = async (target: TestApp, id: string) => {
    await target.services.ledger.whenSettled(id);
    const [p] = await target.services.db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
      [id],
    );
    return { balance: Number(p?.credit_balance), usage: Number(p?.credit_usage), reserved: Number(p?.credit_reserved) };
  };

  it('answers a retry with the stored answer and charges once, in any process', async () => {
    const { id, apiKey } = await app.partner(10);
    const first = await gql(app, apiKey, '{ meteredTwo meteredEcho(text: "i") }', 'order-1');
    expect(first.statusCode).toBe(200);
    const again = await gql(app, apiKey, '{ meteredTwo meteredEcho(text: "i") }', 'order-1');
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const elsewhere = await gql(second, apiKey, '{ meteredTwo meteredEcho(text: "i") }', 'order-1');
    expect(elsewhere.body).toBe(first.body);
    expect(await usage(app, id)).toEqual({ balance: 7, usage: 3, reserved: 0 });
  });

  it('refuses the same key with other parameters with a free 400', async () => {
    const { id, apiKey } = await app.partner(10);
    expect((await gql(app, apiKey, '{ meteredTwo }', 'k-2')).statusCode).toBe(200);
    const other = await gql(app, apiKey, '{ meteredEcho(text: "different") }', 'k-2');
    expect(other.statusCode).toBe(400);
    expect(JSON.stringify(other.json())).toMatch(/Idempotency-Key was already used with other parameters/);
    expect(await usage(app, id)).toEqual({ balance: 8, usage: 2, reserved: 0 });
  });

  it('stores no failure: a retry after an unanswered or failed call runs again', async () => {
    const { id, apiKey } = await app.partner(10);
    const failed = await gql(app, apiKey, '{ meteredFails }', 'k-3');
    expect(failed.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    const refused = await gql(app, apiKey, '{ meteredFails }', 'k-3');
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    expect(await usage(app, id)).toEqual({ balance: 10, usage: 0, reserved: 0 });
  });

  it('keeps keys per partner, validates them, and works on REST paths', async () => {
    const a = await app.partner(10);
    const b = await app.partner(10);
    expect((await gql(app, a.apiKey, '{ meteredTwo }', 'shared')).statusCode).toBe(200);
    const other = await gql(app, b.apiKey, '{ meteredEcho(text: "b") }', 'shared');
    expect(other.json()).toEqual({ data: { meteredEcho: 'b' }, extensions: { credits: { charged: 1, remaining: 9 } } });
    const bad = await gql(app, a.apiKey, '{ meteredTwo }', 'x'.repeat(256));
    expect(bad.statusCode).toBe(400);
    const rest = () =>
      app.http.inject({
        method: 'GET',
        url: '/partners/stats',
        headers: { 'x-api-key': a.apiKey, 'idempotency-key': 'stats-1' },
      });
    const s1 = await rest();
    const s2 = await rest();
    expect(s2.body).toBe(s1.body);
    expect(s2.headers['idempotent-replayed']).toBe('true');
    expect(await usage(app, a.id)).toEqual({ balance: 8, usage: 2, reserved: 0 });
    expect(await usage(app, b.id)).toEqual({ balance: 9, usage: 1, reserved: 0 });
  });

  /**
   * Runs `body` with the database's statements matching `slow` held back by `ms` first (a record written
   * late after its answer); waits for them before returning, and answers how many there were.
   */
  const withSlowWrites = async (slow: RegExp, ms: number, body: () => Promise<void>) => {
    const db = app.services.db;
    const real = db.run;
    const held: Promise<unknown>[] = [];
    db.run = (sql, params) => {
      if (!slow.test(sql)) return real(sql, params);
      const late = new Promise((resolve) => setTimeout(resolve, ms)).then(() => real(sql, params));
      held.push(late.catch(() => undefined));
      return late;
    };
    try {
      await body();
    } finally {
      db.run = real;
      await Promise.all(held);
    }
    return held.length;
  };

  it("answers a retry sent while the answer's record is still being written with that answer, never a 409", async () => {
    const { id, apiKey } = await app.partner(10);
    const stats = () =>
      app.http.inject({
        method: 'GET',
        url: '/partners/stats',
        headers: { 'x-api-key': apiKey, 'idempotency-key': 'stats-late' },
      });
    // A free answer: stored after delivery by a write of its own, which this retry must wait for.
    const stored = await withSlowWrites(/^update idempotency_record/, 300, async () => {
      const first = await stats();
      expect(first.statusCode).toBe(200);
      const retry = await stats();
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);
    });
    expect(stored).toBe(1);
    // A paid answer: stored with its charge by a settlement held back the same way; charged once.
    const settle = app.services.ledger.settle.bind(app.services.ledger);
    app.services.ledger.settle = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return settle(...args);
    };
    try {
      const first = await gql(app, apiKey, '{ meteredTwo }', 'paid-late');
      expect(first.statusCode).toBe(200);
      const retry = await gql(app, apiKey, '{ meteredTwo }', 'paid-late');
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);
    } finally {
      app.services.ledger.settle = settle;
    }
    // A failed answer: its claim released late, after which the retry runs again (and is charged nothing).
    const released = await withSlowWrites(
      /^delete from idempotency_record where partner_id = \? and idempotency_key = \? and state = 'pending'/,
      300,
      async () => {
        const failed = await gql(app, apiKey, '{ meteredFails }', 'fails-late');
        expect(failed.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
        const retry = await gql(app, apiKey, '{ meteredFails }', 'fails-late');
        expect(retry.statusCode).not.toBe(409);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
        expect(retry.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
      },
    );
    expect(released).toBe(2);
    expect(await usage(app, id)).toEqual({ balance: 8, usage: 2, reserved: 0 });
  });

  it('refuses a repeat with 409 while the first request with the key is still running in the same process', async () => {
    const { id, apiKey } = await app.partner(10);
    const first = gql(app, apiKey, '{ meteredSlow(ms: 400) }', 'running');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const repeat = await gql(app, apiKey, '{ meteredSlow(ms: 400) }', 'running');
    expect(repeat.statusCode).toBe(409);
    expect((await first).statusCode).toBe(200);
    const replay = await gql(app, apiKey, '{ meteredSlow(ms: 400) }', 'running');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe((await first).body);
    expect(await usage(app, id)).toEqual({ balance: 9, usage: 1, reserved: 0 });
  });

  it('keys a record to the concrete path and query: one key on two webhook ids is refused, not replayed', async () => {
    const { id, apiKey } = await app.partner(10);
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, key?: string, payload?: unknown) =>
      app.http.inject({
        method,
        url,
        headers: { 'x-api-key': apiKey, ...(key ? { 'idempotency-key': key } : {}) },
        ...(payload ? { payload } : {}),
      });
    const register = async () =>
      (await call('POST', '/partners/webhooks', undefined, { url: 'https://93.184.216.34/hook' })).json().id as string;
    const [a, b] = [await register(), await register()];
    const first = await call('DELETE', `/partners/webhooks/${a}`, 'delete-1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: a });
    const other = await call('DELETE', `/partners/webhooks/${b}`, 'delete-1');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/Idempotency-Key was already used with other parameters/),
    });
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect((await call('GET', '/partners/webhooks')).json().webhooks.map((w: { id: string }) => w.id)).toEqual([b]);
    // The same path again is the same request: replayed.
    const again = await call('DELETE', `/partners/webhooks/${a}`, 'delete-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    // The query string counts as well.
    expect((await call('GET', '/partners/usage?granularity=day', 'usage-1')).statusCode).toBe(200);
    expect((await call('GET', '/partners/usage?granularity=hour', 'usage-1')).statusCode).toBe(400);
    expect(await usage(app, id)).toEqual({ balance: 10, usage: 0, reserved: 0 });
  });

  it('lets only one of two concurrent requests with one key run', async () => {
    const { id, apiKey } = await app.partner(10);
    const [x, y] = await Promise.all([
      gql(app, apiKey, '{ meteredSlow(ms: 200) }', 'race'),
      gql(second, apiKey, '{ meteredSlow(ms: 200) }', 'race'),
    ]);
    const statuses = [x.statusCode, y.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    await second.services.ledger.whenSettled(id);
    expect(await usage(app, id)).toEqual({ balance: 9, usage: 1, reserved: 0 });
  });
});
