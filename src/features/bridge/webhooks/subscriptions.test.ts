/**
 * Subscriptions are priced and bounded: a start costs what a bridgeStatus call costs (held, charged at the
 * first event written to the socket, released otherwise), open subscriptions and followed transfers are
 * capped per partner across processes, starts count against the rate limit, following stops when nothing
 * needs it, old follows are swept, and the follower takes turns between partners.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type ChildServer, startChildServer } from '../../../../test/support/child.js';
import { type Standin, startStandin } from '../../../../test/support/http-standin.js';
import {
  errorCode,
  events,
  lifiFixture,
  openSocket,
  type RawSocket,
  SUBSCRIPTION,
  txHash,
  waitFor,
} from './push.test-helper.js';

/**
 * LI.FI refusing the question: no status, so no event. Not a 5xx, which would open the provider's circuit
 * breaker and make later looks fail without asking.
 */
const CANNOT_ANSWER = { status: 400, json: { message: 'Invalid txHash', code: 1011 } };

/** What a bridgeStatus call costs (schema.test.ts pins the price table): what a subscription start costs. */
const STATUS_PRICE = 1;

describe('subscriptions are priced and bounded', () => {
  let lifi: Standin;
  let app: TestApp;
  let wsUrl: string;
  /** LI.FI's answer per transaction hash; a hash not listed cannot be answered. */
  const answers = new Map<string, unknown>();
  const sockets: RawSocket[] = [];

  const open = async (key: string, url = wsUrl) => {
    const socket = await openSocket(url, key);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    lifi = await startStandin();
    lifi.reply('/v1/status', (req) => {
      const json = answers.get(req.query.txHash?.toLowerCase() ?? '');
      return json ? { json } : CANNOT_ANSWER;
    });
    app = await startTestApp({
      LIFI_API_URL: `${lifi.url}/v1`,
      PROVIDER_TIMEOUT_MS: '2000',
      BRIDGE_FOLLOW_INTERVAL_MS: '100',
      BRIDGE_MAX_SUBSCRIPTIONS: '3',
      BRIDGE_MAX_FOLLOWS: '4',
    });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await app?.stop();
    await lifi?.close();
  });

  const books = async (partnerId: string) => {
    await app.services.ledger.whenSettled(partnerId);
    const [row] = await app.services.db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
      [partnerId],
    );
    const charges = await app.services.db.query<{ credits: number | string; operation: string }>(
      "select credits, operation from ledger_entry where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
    return {
      balance: Number(row?.credit_balance),
      usage: Number(row?.credit_usage),
      reserved: Number(row?.credit_reserved),
      charges: charges.map((c) => [c.operation, Number(c.credits)]),
    };
  };

  it('gives a 0-credit partner no status through any transport', async () => {
    const tx = txHash(1);
    answers.set(tx, lifiFixture('status-pending.json'));
    const { id, apiKey } = await app.partner(0);
    const before = lifi.count('/v1/status');

    const rest = await app.http.inject({
      method: 'GET',
      url: `/partners/bridge/status?txHash=${tx}`,
      headers: { 'x-api-key': apiKey },
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json().message).toMatch(/^Insufficient credits/);

    const gql = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: { query: `{ bridgeStatus(txHash: "${tx}") { status } }` },
    });
    expect(gql.json().errors[0].extensions.code).toBe('INSUFFICIENT_CREDITS');
    expect(gql.json().data?.bridgeStatus ?? null).toBeNull();

    const socket = await open(apiKey);
    socket.subscribe('s', SUBSCRIPTION, { tx });
    await socket.waitFor('the refusal', () => errorCode(socket, 's') !== undefined);
    expect(errorCode(socket, 's')).toBe('INSUFFICIENT_CREDITS');
    // Given a moment, still nothing: no event, no upstream call, nothing followed or held.
    await new Promise((r) => setTimeout(r, 500));
    expect(events(socket, 's')).toEqual([]);
    expect(lifi.count('/v1/status')).toBe(before);
    expect(await app.services.db.query('select 1 from bridge_follow where partner_id = ?', [id])).toEqual([]);
    expect(await books(id)).toEqual({ balance: 0, usage: 0, reserved: 0, charges: [] });
  });

  it('holds the price at the start and releases it when the subscription ends before any event', async () => {
    const tx = txHash(2); // LI.FI cannot answer for it: no event comes
    const { id, apiKey } = await app.partner(5);
    const socket = await open(apiKey);
    socket.subscribe('s', SUBSCRIPTION, { tx });
    await waitFor('the hold', async () => (await books(id)).reserved === STATUS_PRICE);
    await waitFor('an upstream look', () => lifi.requests('/v1/status').some((r) => r.query.txHash === tx));
    socket.complete('s');
    await waitFor('the release', async () => (await books(id)).reserved === 0);
    expect(events(socket, 's')).toEqual([]);
    expect(await books(id)).toEqual({ balance: 5, usage: 0, reserved: 0, charges: [] });
  });

  it('charges once, when the first event was sent; later events are free', async () => {
    const tx = txHash(3);
    answers.set(tx, lifiFixture('status-pending.json'));
    const { id, apiKey } = await app.partner(5);
    const socket = await open(apiKey);
    socket.subscribe('s', SUBSCRIPTION, { tx });
    await socket.waitFor('PENDING', () => events(socket, 's').length === 1);
    await waitFor('the charge', async () => (await books(id)).usage === STATUS_PRICE);
    answers.set(tx, lifiFixture('status-done.json'));
    await socket.waitFor('complete', () => socket.of('s').some((m) => m.type === 'complete'));
    expect(events(socket, 's').map((e) => e.transfer.status)).toEqual(['PENDING', 'DONE']);
    expect(await books(id)).toEqual({
      balance: 5 - STATUS_PRICE,
      usage: STATUS_PRICE,
      reserved: 0,
      charges: [['bridgeStatusChanged', STATUS_PRICE]],
    });
  });

  it('caps open subscriptions per partner, refusing for free', async () => {
    const { id, apiKey } = await app.partner(10);
    const socket = await open(apiKey);
    for (const i of [10, 11, 12]) socket.subscribe(`s${i}`, SUBSCRIPTION, { tx: txHash(i) });
    const rows = async () =>
      (await app.services.db.query('select 1 from bridge_subscription where partner_id = ?', [id])).length;
    await waitFor('three open', async () => (await rows()) === 3);
    socket.subscribe('s13', SUBSCRIPTION, { tx: txHash(13) });
    await socket.waitFor('the refusal', () => errorCode(socket, 's13') !== undefined);
    expect(errorCode(socket, 's13')).toBe('RATE_LIMITED');
    expect(['s10', 's11', 's12'].map((s) => errorCode(socket, s))).toEqual([undefined, undefined, undefined]);
    expect((await books(id)).reserved).toBe(3 * STATUS_PRICE);
    // Completing one frees its slot at once.
    socket.complete('s10');
    await waitFor('the slot', async () => (await books(id)).reserved === 2 * STATUS_PRICE);
    socket.subscribe('s14', SUBSCRIPTION, { tx: txHash(14) });
    await waitFor('the new hold', async () => (await books(id)).reserved === 3 * STATUS_PRICE);
    expect(errorCode(socket, 's14')).toBeUndefined();
    // Closing the socket ends everything it held.
    await socket.close();
    await waitFor('all released', async () => (await books(id)).reserved === 0);
    expect(await app.services.db.query('select 1 from bridge_subscription where partner_id = ?', [id])).toEqual([]);
    expect(await books(id)).toMatchObject({ balance: 10, usage: 0, charges: [] });
  });

  it('caps followed transfers per partner', async () => {
    const { id, apiKey } = await app.partner(10);
    // Three transfers followed already (as a webhook's would be), then two subscriptions: the second is over.
    const now = new Date();
    for (const i of [20, 21, 22])
      await app.services.db.run(
        `insert into bridge_follow (partner_id, tx_hash, sandbox, seq, checks, next_check_at, created_at)
         values (?, ?, ?, 0, 0, ?, ?)`,
        [id, txHash(i), false, new Date(now.getTime() + 3600_000), now],
      );
    const socket = await open(apiKey);
    socket.subscribe('a', SUBSCRIPTION, { tx: txHash(23) });
    await waitFor('the first hold', async () => (await books(id)).reserved === STATUS_PRICE);
    socket.subscribe('b', SUBSCRIPTION, { tx: txHash(24) });
    await socket.waitFor('the refusal', () => errorCode(socket, 'b') !== undefined);
    expect(errorCode(socket, 'b')).toBe('RATE_LIMITED');
    expect(errorCode(socket, 'a')).toBeUndefined();
    // A subscription to a transfer already followed needs no new follow.
    socket.subscribe('c', SUBSCRIPTION, { tx: txHash(20) });
    await waitFor('the second hold', async () => (await books(id)).reserved === 2 * STATUS_PRICE);
    expect(errorCode(socket, 'c')).toBeUndefined();
    await socket.close();
    await waitFor('all released', async () => (await books(id)).reserved === 0);
    expect((await books(id)).charges).toEqual([]);
  });

  it('stops following a transfer once its subscriptions end, without another upstream call', async () => {
    const tx = txHash(30);
    answers.set(tx, lifiFixture('status-pending.json'));
    const { id, apiKey } = await app.partner(5);
    const socket = await open(apiKey);
    socket.subscribe('s', SUBSCRIPTION, { tx });
    await socket.waitFor('PENDING', () => events(socket, 's').length === 1);
    await socket.close();
    const looks = () => lifi.requests('/v1/status').filter((r) => r.query.txHash === tx).length;
    await waitFor('the follow to stop', async () => {
      const [row] = await app.services.db.query<{ next_check_at: unknown }>(
        'select next_check_at from bridge_follow where partner_id = ? and tx_hash = ?',
        [id, tx],
      );
      return row !== undefined && row.next_check_at === null;
    });
    const after = looks();
    // Many follow intervals later: not looked at again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(looks()).toBe(after);
  });

  it('deletes finished and abandoned follows after the retention, keeping those still in use', async () => {
    const { id } = await app.partner(1);
    const { id: other } = await app.partner(1);
    const old = new Date(Date.now() - 8 * 24 * 3600_000);
    const rows: [string, string, Date | null, string | null][] = [
      [id, txHash(40), null, 'DONE:COMPLETED'], // finished long ago
      [id, txHash(41), null, 'PENDING:'], // abandoned long ago
      [id, txHash(42), new Date(Date.now() + 60_000), 'PENDING:'], // still followed
      [other, txHash(43), null, 'DONE:COMPLETED'], // finished, its delivery still pending
    ];
    for (const [partner, tx, next, key] of rows)
      await app.services.db.run(
        `insert into bridge_follow (partner_id, tx_hash, sandbox, seq, last_key, checks, next_check_at, created_at)
         values (?, ?, ?, 1, ?, 0, ?, ?)`,
        [partner, tx, false, key, next, old],
      );
    const hook = '00000000-0000-4000-8000-0000000000aa';
    await app.services.db.run(
      `insert into bridge_webhook (id, partner_id, url, secret, created_at) values (?, ?, 'https://example.com/h', 's', ?)`,
      [hook, other, old],
    );
    await app.services.db.run(
      `insert into bridge_webhook_delivery (id, webhook_id, tx_hash, seq, payload, state, attempts, next_attempt_at, created_at)
       values (?, ?, ?, 1, '{}', 'pending', 0, ?, ?)`,
      ['00000000-0000-4000-8000-0000000000ab', hook, txHash(43), new Date(Date.now() + 3600_000), old],
    );
    await app.services.webhooks.sweep();
    const left = await app.services.db.query<{ tx_hash: string }>(
      'select tx_hash from bridge_follow where partner_id in (?, ?) order by tx_hash',
      [id, other],
    );
    expect(left.map((r) => r.tx_hash)).toEqual([txHash(42), txHash(43)]);
  });

  it("takes turns between partners: one partner's 200 due follows do not hold back another's", async () => {
    const { id: busy } = await app.partner(1);
    const { id: quiet } = await app.partner(1);
    // Both have a webhook, so their follows are needed; the busy partner's came due first.
    for (const [n, partner] of [busy, quiet].entries())
      await app.services.db.run(
        `insert into bridge_webhook (id, partner_id, url, secret, created_at) values (?, ?, 'https://example.com/h', 's', ?)`,
        [`00000000-0000-4000-8000-00000000010${n}`, partner, new Date()],
      );
    const now = Date.now();
    for (let i = 0; i < 200; i++)
      await app.services.db.run(
        `insert into bridge_follow (partner_id, tx_hash, sandbox, seq, checks, next_check_at, created_at)
         values (?, ?, ?, 0, 0, ?, ?)`,
        [busy, txHash(1000 + i), false, new Date(now - 60_000 + i), new Date(now)],
      );
    const quietTx = txHash(2000);
    await app.services.db.run(
      `insert into bridge_follow (partner_id, tx_hash, sandbox, seq, checks, next_check_at, created_at)
       values (?, ?, ?, 0, 0, ?, ?)`,
      [quiet, quietTx, false, new Date(now - 1000), new Date(now)],
    );
    const seen = () => lifi.requests('/v1/status').map((r) => r.query.txHash);
    const start = seen().length;
    await waitFor('the quiet partner’s look', () => seen().includes(quietTx), 20_000).catch((e) => {
      console.log(seen().slice(start).length, seen().slice(start, start + 30));
      throw e;
    });
    // Looked at within the first round, not after the busy partner's 200.
    expect(seen().slice(start).indexOf(quietTx)).toBeLessThan(20);
    await app.services.db.run('delete from bridge_webhook where partner_id in (?, ?)', [busy, quiet]);
  });
});

describe('subscriptions across two processes', () => {
  let lifi: Standin;
  const answers = new Map<string, unknown>();
  let app: TestApp;
  let children: ChildServer[] = [];

  beforeAll(async () => {
    lifi = await startStandin();
    lifi.reply('/v1/status', (req) => {
      const json = answers.get(req.query.txHash?.toLowerCase() ?? '');
      return json ? { json } : CANNOT_ANSWER;
    });
    const env = {
      LIFI_API_URL: `${lifi.url}/v1`,
      PROVIDER_TIMEOUT_MS: '2000',
      // A transfer is looked at once when followed, then not for a minute: later changes come from calls.
      BRIDGE_FOLLOW_INTERVAL_MS: '60000',
      BRIDGE_MAX_SUBSCRIPTIONS: '3',
      RATE_LIMIT_PARTNER_MAX: '100000',
    };
    app = await startTestApp(env);
    const shared = { ...env, DATABASE_URL: app.database.url };
    children = await Promise.all([startChildServer(shared), startChildServer(shared)]);
  });
  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop()));
    await app?.stop();
    await lifi?.close();
  });

  it('sends a subscriber the changes another process saw', async () => {
    const tx = txHash(60);
    answers.set(tx, lifiFixture('status-pending.json'));
    const { apiKey } = await app.partner(10);
    const socket = await openSocket(`${children[0]?.url.replace('http', 'ws')}/graphql`, apiKey);
    try {
      socket.subscribe('s', SUBSCRIPTION, { tx });
      await socket.waitFor('PENDING', () => events(socket, 's').length === 1);
      // The partner's own call, answered by this process (not the one serving the socket), sees DONE.
      answers.set(tx, lifiFixture('status-done.json'));
      const res = await app.http.inject({
        method: 'GET',
        url: `/partners/bridge/status?txHash=${tx}`,
        headers: { 'x-api-key': apiKey },
      });
      expect(res.json().status).toBe('DONE');
      await socket.waitFor('DONE', () => socket.of('s').some((m) => m.type === 'complete'), 5000);
      expect(events(socket, 's').map((e) => [e.sequence, e.transfer.status])).toEqual([
        [1, 'PENDING'],
        [2, 'DONE'],
      ]);
    } finally {
      await socket.close();
    }
  });

  it('holds the cap whichever process serves the subscriptions, and frees slots on close', async () => {
    const { id, apiKey } = await app.partner(10);
    const [a, b] = children.map((c) => `${c.url.replace('http', 'ws')}/graphql`) as [string, string];
    const one = await openSocket(a, apiKey);
    const two = await openSocket(b, apiKey);
    try {
      one.subscribe('1', SUBSCRIPTION, { tx: txHash(50) });
      one.subscribe('2', SUBSCRIPTION, { tx: txHash(51) });
      two.subscribe('3', SUBSCRIPTION, { tx: txHash(52) });
      const rows = async () =>
        (await app.services.db.query('select 1 from bridge_subscription where partner_id = ?', [id])).length;
      await waitFor('three open', async () => (await rows()) === 3);
      two.subscribe('4', SUBSCRIPTION, { tx: txHash(53) });
      one.subscribe('5', SUBSCRIPTION, { tx: txHash(54) });
      await waitFor('two refusals', () => errorCode(two, '4') !== undefined && errorCode(one, '5') !== undefined);
      expect([errorCode(two, '4'), errorCode(one, '5')]).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
      // The first process's socket closes: its two slots are free for the other process.
      await one.close();
      await waitFor('slots freed', async () => (await rows()) === 1);
      two.subscribe('6', SUBSCRIPTION, { tx: txHash(55) });
      await waitFor('two open', async () => (await rows()) === 2);
      expect(errorCode(two, '6')).toBeUndefined();
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    await waitFor('all released', async () => {
      const [row] = await app.services.db.query<{ r: number | string }>(
        'select credit_reserved as r from partner where id = ?',
        [id],
      );
      return Number(row?.r) === 0;
    });
    const [row] = await app.services.db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage from partner where id = ?',
      [id],
    );
    expect([Number(row?.credit_balance), Number(row?.credit_usage)]).toEqual([10, 0]);
  });
});
