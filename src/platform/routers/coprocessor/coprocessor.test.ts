import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.js';
import { meteredSubgraph, withMetered } from '../../../../test/support/paid-subgraph.js';
import { type SubgraphServer, serveSubgraph } from '../../../subgraph-server.js';
import { loadConfig } from '../../config.js';
import { GATEWAY_TOKEN_HEADER, verifyGatewayToken } from '../../gateway/subgraph-token.js';
import type { CoprocessorPayload } from './coprocessor.js';

const SUBGRAPH_SECRET = randomBytes(32).toString('base64url');
const COPROCESSOR_SECRET = randomBytes(32).toString('hex');

/**
 * A protocol-level stand-in for Apollo Router (its binary is not installable here): posts each stage's
 * documented payload in the order the Router does, carrying the returned context forward as it would.
 */
class RouterStandIn {
  readonly id = randomUUID();
  private entries: Record<string, unknown> = {};
  constructor(
    private readonly app: TestApp,
    private readonly secret = COPROCESSOR_SECRET,
  ) {}

  async stage(stage: string, data: Partial<CoprocessorPayload>) {
    const payload: CoprocessorPayload = {
      version: 1,
      stage,
      control: 'continue',
      id: this.id,
      context: { entries: this.entries },
      ...data,
    };
    const res = await this.app.http.inject({
      method: 'POST',
      url: `/router/coprocessor?secret=${this.secret}`,
      payload,
    });
    const answer = res.json() as CoprocessorPayload;
    if (res.statusCode === 200) {
      expect(answer).toMatchObject({ version: 1, stage, id: this.id });
      this.entries = answer.context?.entries ?? this.entries;
    }
    return { status: res.statusCode, answer };
  }

  /** RouterRequest then SupergraphRequest, as for one client POST /graphql. */
  async request(query: string, apiKey?: string) {
    const headers = { 'content-type': ['application/json'], ...(apiKey ? { 'x-api-key': [apiKey] } : {}) };
    const router = await this.stage('RouterRequest', {
      headers,
      body: JSON.stringify({ query }),
      method: 'POST',
      path: '/',
    });
    if (router.answer.control !== 'continue') return router;
    return this.stage('SupergraphRequest', { headers, body: { query }, method: 'POST' });
  }

  subgraph(serviceName: string, query: string) {
    return this.stage('SubgraphRequest', {
      serviceName,
      subgraphRequestId: randomUUID(),
      uri: 'http://metered/graphql',
      method: 'POST',
      headers: { 'content-type': ['application/json'], 'x-api-key': ['leaked?'] },
      body: { query },
    });
  }

  async respond(body: Record<string, unknown>, statusCode = 200) {
    await this.stage('SupergraphResponse', { statusCode, body, headers: {} });
    return this.stage('RouterResponse', { statusCode, body: JSON.stringify(body), headers: {} });
  }
}

describe('Apollo Router coprocessor (POST /router/coprocessor)', () => {
  let database: TestDatabase;
  let app: TestApp;
  let subgraph: SubgraphServer;
  let subgraphUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({ SUBGRAPH_SECRET, ROUTER_COPROCESSOR_SECRET: COPROCESSOR_SECRET }, database, {
      subgraphs: withMetered(),
    });
    subgraph = await serveSubgraph(
      meteredSubgraph,
      loadConfig({ DATABASE_URL: database.url, SUBGRAPH_SECRET, SUBGRAPH_PORT: '0', LOG_LEVEL: 'silent' }),
    );
    const { port } = await subgraph.listen();
    subgraphUrl = `http://127.0.0.1:${port}/graphql`;
  }, 60_000);
  afterAll(async () => {
    await subgraph?.close();
    await app?.stop();
    await database?.drop();
  });

  const books = async (partnerId: string) => {
    await app.services.ledger.whenSettled(partnerId);
    const [row] = await app.services.db.query<Record<string, number | string>>(
      'select credit_balance as b, credit_usage as u, credit_reserved as r from partner where id = ?',
      [partnerId],
    );
    const charges = await app.services.db.query<{ credits: number | string }>(
      "select credits from ledger_entry where partner_id = ? and kind = 'charge'",
      [partnerId],
    );
    return {
      balance: Number(row?.b),
      usage: Number(row?.u),
      reserved: Number(row?.r),
      charges: charges.map((c) => Number(c.credits)),
    };
  };

  it('refuses callers other than the Router, and payloads that are not the protocol', async () => {
    const forged = await new RouterStandIn(app, 'x'.repeat(64)).stage('RouterRequest', { headers: {} });
    expect(forged.status).toBe(401);
    const notProtocol = await app.http.inject({
      method: 'POST',
      url: `/router/coprocessor?secret=${COPROCESSOR_SECRET}`,
      payload: { version: 2, stage: 'RouterRequest' },
    });
    expect(notProtocol.statusCode).toBe(400);
  });

  it('breaks with 401 for a bad key, and for a paid operation without a key', async () => {
    const bad = await new RouterStandIn(app).request('{ meteredTwo }', 'cg_live_nope');
    expect(bad.answer.control).toEqual({ break: 401 });
    expect(JSON.parse(String(bad.answer.body)).errors[0].extensions.code).toBe('UNAUTHENTICATED');

    const keyless = await new RouterStandIn(app).request('{ meteredTwo }');
    expect(keyless.answer.stage).toBe('SupergraphRequest');
    expect(keyless.answer.control).toEqual({ break: 401 });
    expect((keyless.answer.body as { errors: { message: string }[] }).errors[0]?.message).toContain('meteredTwo');

    // A free operation needs no key and holds nothing.
    const free = await new RouterStandIn(app).request('{ __typename }');
    expect(free.answer.control).toBe('continue');
  });

  it('breaks with 400 INSUFFICIENT_CREDITS naming the operation, charging nothing', async () => {
    const { id, apiKey } = await app.partner(1);
    const poor = await new RouterStandIn(app).request('{ meteredTwo }', apiKey);
    expect(poor.answer.control).toEqual({ break: 400 });
    const error = (poor.answer.body as { errors: { message: string; extensions: Record<string, unknown> }[] })
      .errors[0];
    expect(error?.extensions).toEqual({ code: 'INSUFFICIENT_CREDITS', required: 2, available: 1 });
    expect(error?.message).toMatch(/meteredTwo requires 2 credits, but the balance available is 1/);
    expect(await books(id)).toEqual({ balance: 1, usage: 0, reserved: 0, charges: [] });
  });

  it('holds at SupergraphRequest, signs subgraph calls, and settles once at RouterResponse', async () => {
    const { id, apiKey } = await app.partner(5);
    const router = new RouterStandIn(app);
    const held = await router.request('{ meteredTwo echo: meteredEcho(text: "hi") }', apiKey);
    expect(held.answer.control).toBe('continue');
    expect(await books(id)).toMatchObject({ balance: 5, reserved: 3 });

    const sub = await router.subgraph('metered', '{ meteredTwo echo: meteredEcho(text: "hi") }');
    const token = sub.answer.headers?.[GATEWAY_TOKEN_HEADER]?.[0];
    expect(verifyGatewayToken(SUBGRAPH_SECRET, token)).toMatchObject({ partnerId: id });
    expect(sub.answer.headers?.['x-api-key']).toBeUndefined();
    // The subgraph accepts what the Router will send, and only that.
    const call = (headers: Record<string, string>) =>
      fetch(subgraphUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ meteredTwo }' }),
      });
    expect((await call({ [GATEWAY_TOKEN_HEADER]: token as string })).status).toBe(200);
    expect((await call({ 'x-api-key': apiKey })).status).toBe(401);

    // meteredEcho answered, meteredTwo failed: only the echo is charged.
    const answer = { data: { meteredTwo: null, echo: 'hi' }, errors: [{ message: 'x', path: ['meteredTwo'] }] };
    const done = await router.respond(answer);
    expect(done.answer.control).toBe('continue');
    expect(await books(id)).toEqual({ balance: 4, usage: 1, reserved: 0, charges: [1] });
    // The Router retrying the last stage (its coprocessor call timed out) charges nothing more.
    await router.stage('RouterResponse', { statusCode: 200, body: JSON.stringify(answer) });
    expect(await books(id)).toEqual({ balance: 4, usage: 1, reserved: 0, charges: [1] });
  });

  it('charges nothing for an answer that is not a 200, and keeps balance + usage = granted under load', async () => {
    const { id, apiKey } = await app.partner(9);
    const failed = new RouterStandIn(app);
    await failed.request('{ meteredTwo }', apiKey);
    await failed.respond({ data: { meteredTwo: 2 } }, 503);
    expect(await books(id)).toEqual({ balance: 9, usage: 0, reserved: 0, charges: [] });

    const outcomes = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const router = new RouterStandIn(app);
        const held = await router.request('{ meteredTwo }', apiKey);
        if (held.answer.control !== 'continue') return 'refused';
        await router.respond({ data: { meteredTwo: 2 } });
        return 'ok';
      }),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(4);
    const final = await books(id);
    expect(final).toEqual({ balance: 1, usage: 8, reserved: 0, charges: [2, 2, 2, 2] });
    expect(final.balance + final.usage).toBe(9);
  });

  it('counts each client request on the partner rate limit', async () => {
    const limited = await startTestApp(
      { SUBGRAPH_SECRET, ROUTER_COPROCESSOR_SECRET: COPROCESSOR_SECRET, RATE_LIMIT_PARTNER_MAX: '3' },
      database,
      { subgraphs: withMetered() },
    );
    try {
      const { apiKey } = await limited.partner(0);
      for (let i = 0; i < 3; i++) {
        expect((await new RouterStandIn(limited).request('{ __typename }', apiKey)).answer.control).toBe('continue');
      }
      const over = await new RouterStandIn(limited).request('{ __typename }', apiKey);
      expect(over.answer.control).toEqual({ break: 429 });
      expect(over.answer.headers?.['retry-after']?.[0]).toMatch(/^\d+$/);
    } finally {
      await limited.stop();
    }
  });
});
