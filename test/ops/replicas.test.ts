import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner } from '../../src/features/accounts/partners.js';
import { type Database, openDatabase } from '../../src/platform/db/orm.js';
import { ALICE, importNamesFile, NAMES_FILE } from '../fixtures/mns/index.js';
import { EXACT_COUNT_REDIS_TIMEOUT_MS } from '../support/app.js';
import { type ChildServer, startChildServer } from '../support/child.js';
import { usingPostgres } from '../support/database.js';
import { type LoadBalancer, startLoadBalancer } from '../support/load-balancer.js';

// Proof of the production shape (README, "Production"): three replicas of the whole service behind a
// plain round-robin load balancer, on one PostgreSQL and one Redis, each with a pool of 3 connections
// under a role allowed 12 in all. Mixed paid and public traffic, one replica killed mid-run.
const ROLE = 'cipgate_replicas';
const PRICE = 2;
const GRANTED = 200;
const PARTNER_LIMIT = 150;

interface Answer {
  kind: 'paid' | 'public';
  requestId: string;
  status: number;
  backend: number;
  code?: string;
}

describe.runIf(usingPostgres() && process.env.REDIS_URL)('three replicas behind a load balancer', () => {
  // The body is collected even when the suite is skipped (SQLite): keep it parseable without PostgreSQL.
  const admin = usingPostgres() ? (process.env.DATABASE_URL as string) : 'postgres://skipped/skipped';
  const name = `cipgate_r_${randomBytes(5).toString('hex')}`;
  const asAdmin = new URL(admin);
  asAdmin.pathname = `/${name}`;
  const asRole = new URL(asAdmin);
  asRole.username = ROLE;
  asRole.password = '';
  let replicas: ChildServer[] = [];
  let lb: LoadBalancer;
  let db: Database;

  const sql = async (query: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await sql(`do $$ begin
      if not exists (select from pg_roles where rolname = '${ROLE}') then create role ${ROLE} login; end if;
    end $$`);
    await sql(`alter role ${ROLE} connection limit 12`);
    await sql(`create database ${name} owner ${ROLE}`);
    const env = {
      DATABASE_URL: asRole.toString(),
      DATABASE_POOL_MAX: '3',
      REDIS_URL: process.env.REDIS_URL as string,
      RATE_LIMIT_PARTNER_MAX: String(PARTNER_LIMIT),
      RATE_LIMIT_PUBLIC_MAX: '1000000',
      RATE_LIMIT_WINDOW_MS: '600000',
      // Holds of the replica killed mid-run are released by the survivors' sweepers within seconds.
      CREDIT_RESERVATION_TTL_MS: '2000',
      // The sharing check needs every count in Redis, even on a loaded machine.
      RATE_LIMIT_REDIS_TIMEOUT_MS: EXACT_COUNT_REDIS_TIMEOUT_MS,
    };
    // All three start together on a fresh database: the migration lock makes them take turns.
    replicas = await Promise.all([startChildServer(env), startChildServer(env), startChildServer(env)]);
    lb = await startLoadBalancer(replicas.map((r) => r.url));
    expect((await importNamesFile(asAdmin.toString(), NAMES_FILE)).code).toBe(0);
    db = await openDatabase(asAdmin.toString());
  }, 180_000);
  afterAll(async () => {
    await lb?.close();
    await Promise.all(replicas.map((r) => r.stop()));
    await db?.close();
    await sql(`drop database if exists ${name} with (force)`);
  });

  const send = async (kind: Answer['kind'], apiKey: string): Promise<Answer> => {
    const requestId = randomUUID();
    const init: RequestInit =
      kind === 'paid'
        ? {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-request-id': requestId },
            body: JSON.stringify({ query: '{ meteredTwo }' }),
          }
        : { headers: { 'x-request-id': requestId } };
    const path = kind === 'paid' ? '/graphql' : '/api/public/identity/address?name=alice.snow&caip2Id=move-mvmt:126';
    const res = await fetch(`${lb.url}${path}`, init);
    const body = (await res.json()) as {
      errors?: { extensions?: { code?: string } }[];
      owner?: string;
      message?: string;
    };
    if (kind === 'public' && res.status === 200) expect(body.owner).toBe(ALICE);
    const code = body.errors?.[0]?.extensions?.code ?? (res.status === 502 ? body.message : undefined);
    return {
      kind,
      requestId,
      status: res.status,
      backend: Number(res.headers.get('x-backend')),
      ...(code ? { code } : {}),
    };
  };
  /** Sends `kinds` through the load balancer, `parallel` at a time; `during(i)` runs before the i-th. */
  const fire = async (kinds: Answer['kind'][], apiKey: string, parallel: number, during?: (i: number) => void) => {
    const answers: Answer[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < kinds.length) {
          const i = next++;
          during?.(i);
          answers.push(await send(kinds[i] as Answer['kind'], apiKey));
        }
      }),
    );
    return answers;
  };
  const charges = async (partnerId: string) =>
    db.query<{ request_id: string; credits: number | string }>(
      "select request_id, credits from ledger_entry where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
  const partnerRow = async (partnerId: string) => {
    const [row] = await db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage, credit_reserved from partner where id = ?',
      [partnerId],
    );
    return {
      balance: Number(row?.credit_balance),
      usage: Number(row?.credit_usage),
      reserved: Number(row?.credit_reserved),
    };
  };

  it('charges exactly under mixed traffic while one replica is killed mid-run', async () => {
    const { partner, key } = await createPartner(db, {
      name: 'Mixed',
      email: `mixed-${name}@example.com`,
      credits: GRANTED,
    });
    const kinds = Array.from({ length: 300 }, (_, i) => (i % 2 ? 'public' : 'paid') as Answer['kind']);
    const killed = 2;
    const answers = await fire(kinds, key.apiKey, 12, (i) => {
      if (i === 100) replicas[killed]?.process.kill('SIGKILL');
    });
    expect(answers).toHaveLength(300);
    // Every answer is a success, a refusal for credits, or a failure of the killed replica: no request
    // fails for lack of connections (3 processes × (pool 3 + 1) = the role's 12).
    const failed = answers.filter((a) => a.status !== 200 && a.code !== 'INSUFFICIENT_CREDITS');
    expect(
      failed.every((a) => a.backend === killed && a.status === 502),
      JSON.stringify(failed),
    ).toBe(true);
    expect(answers.filter((a) => a.backend === killed).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.kind === 'public' && a.status === 200).length).toBeGreaterThan(100);

    // The killed replica's holds time out and the survivors' sweepers release them.
    await expect.poll(async () => (await partnerRow(partner.id)).reserved, { timeout: 15_000, interval: 250 }).toBe(0);
    const books = await partnerRow(partner.id);
    const ledger = await charges(partner.id);
    const paidOk = answers.filter((a) => a.kind === 'paid' && a.status === 200 && !a.code);
    const answered = new Set(paidOk.map((a) => a.requestId));
    expect(books.balance + books.usage).toBe(GRANTED);
    expect(books.usage).toBe(ledger.length * PRICE);
    // One charge per answered request and none for anything else; at most one per request id.
    expect(new Set(ledger.map((c) => c.request_id)).size).toBe(ledger.length);
    expect(ledger.filter((c) => !answered.has(c.request_id))).toEqual([]);
    // A survivor settles every answer it wrote. Only the killed replica can have written an answer and
    // died before recording its charge (settlement follows delivery, so a crash undercharges, never
    // overcharges); that window is a few milliseconds per request.
    const charged = new Set(ledger.map((c) => c.request_id));
    const unpaid = paidOk.filter((a) => !charged.has(a.requestId));
    expect(unpaid.filter((a) => a.backend !== killed)).toEqual([]);
    expect(unpaid.length).toBeLessThanOrEqual(12);
    // Refusals come only once what is not leased to another replica no longer covers a call. A replica
    // leases at most a quarter of what is available then (credits/ledger.ts), so the three replicas'
    // leases hold at most 1 − (3/4)³ of the grant; the killed replica's stays held until it expires, and
    // a survivor's until it is spent or idle for a second. Without leases this bound was PRICE + 12 × PRICE.
    const refused = answers.filter((a) => a.code === 'INSUFFICIENT_CREDITS');
    if (refused.length) expect(books.balance).toBeLessThan(PRICE + 12 * PRICE + GRANTED * (1 - (3 / 4) ** 3));
    expect(paidOk.length + refused.length + failed.filter((a) => a.kind === 'paid').length).toBe(150);
  }, 120_000);

  it('shares the partner rate limit across the surviving replicas through Redis, with no failures', async () => {
    const { partner, key } = await createPartner(db, {
      name: 'Limited',
      email: `limited-${name}@example.com`,
      credits: 1000,
    });
    const answers = await fire(
      Array.from({ length: 200 }, () => 'paid' as const),
      key.apiKey,
      3,
    );
    const ok = answers.filter((a) => a.status === 200 && !a.code);
    const limited = answers.filter((a) => a.status === 429);
    const tally = JSON.stringify(
      answers.reduce<Record<string, number>>((t, a) => {
        const k = `${a.status} ${a.code ?? ''} ${a.backend}`;
        t[k] = (t[k] ?? 0) + 1;
        return t;
      }, {}),
    );
    // No request fails: each is answered or refused for the limit.
    expect(ok.length + limited.length, tally).toBe(200);
    // Each survivor saw about 100 of the partner's requests, fewer than its own limit of 150: only the
    // counter they share in Redis can refuse any, and it lets exactly the limit through, then refuses on
    // both.
    expect(ok.length, tally).toBe(PARTNER_LIMIT);
    expect(new Set(limited.map((a) => a.backend)), tally).toEqual(new Set([0, 1]));
    expect(new Set(ok.map((a) => a.backend))).toEqual(new Set([0, 1]));
    const charged = ok.length;
    await expect.poll(async () => (await charges(partner.id)).length, { timeout: 5000 }).toBe(charged);
    // A replica that leased a block of the partner's credits hands back what it did not spend once idle.
    await expect.poll(async () => (await partnerRow(partner.id)).reserved, { timeout: 5000, interval: 250 }).toBe(0);
    const books = await partnerRow(partner.id);
    expect(books).toEqual({ balance: 1000 - PRICE * charged, usage: PRICE * charged, reserved: 0 });
  }, 120_000);
});
