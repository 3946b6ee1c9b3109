import { describe, expect, it } from 'vitest';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { useTestApp } from '../../../test/support/use-app.js';

describe('GraphQL credit charging', () => {
  const app = useTestApp({}, { subgraphs: withMetered() });

  const gql = (apiKey: string | undefined, query: string) =>
    app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
      payload: { query },
    });
  const stats = async (apiKey: string) =>
    (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json();
  const ledger = (partnerId: string) =>
    app.services.db.query<{ kind: string; operation: string; credits: number }>(
      'select kind, operation, credits from ledger_entry where partner_id = ? order by id',
      [partnerId],
    );

  it('charges a two-root-field operation the sum of both prices, one ledger row per field', async () => {
    const { id, apiKey } = await app.partner(10);
    const res = await gql(apiKey, '{ meteredEcho(text: "hi") meteredTwo }');
    expect(res.json()).toEqual({
      data: { meteredEcho: 'hi', meteredTwo: 2 },
      extensions: { credits: { charged: 3, remaining: 7 } },
    });
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 7, creditUsage: 3 });
    const charges = (await ledger(id)).filter((r) => r.kind === 'charge');
    expect(charges.map((c) => [c.operation, Number(c.credits)])).toEqual([
      ['meteredEcho', 1],
      ['meteredTwo', 2],
    ]);
  });

  it('charges aliases of the same field separately and follows fragments', async () => {
    const { apiKey } = await app.partner(10);
    const res = await gql(
      apiKey,
      '{ a: meteredEcho(text: "a") ...F } fragment F on Query { b: meteredEcho(text: "b") }',
    );
    expect(res.json().data).toEqual({ a: 'a', b: 'b' });
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 8, creditUsage: 2 });
  });

  it('does not charge a root field that ends in an error', async () => {
    const { id, apiKey } = await app.partner(10);
    const res = await gql(apiKey, '{ meteredTwo meteredFails }');
    const body = res.json();
    expect(body.data).toEqual({ meteredTwo: 2, meteredFails: null });
    expect(body.errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 8, creditUsage: 2 });
    const reserved = await app.services.db.query<{ credit_reserved: number }>(
      'select credit_reserved from partner where id = ?',
      [id],
    );
    expect(Number(reserved[0]?.credit_reserved)).toBe(0);
  });

  it('hides an unexpected failure behind INTERNAL_SERVER_ERROR and does not charge it', async () => {
    const { apiKey } = await app.partner(5);
    const body = (await gql(apiKey, '{ meteredBug meteredEcho(text: "ok") }')).json();
    expect(body.data).toEqual({ meteredBug: null, meteredEcho: 'ok' });
    expect(body.errors[0]).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(JSON.stringify(body)).not.toContain('secret internal detail');
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 4, creditUsage: 1 });
  });

  it('refuses before execution when the balance does not cover the whole operation', async () => {
    const { id, apiKey } = await app.partner(2);
    const res = await gql(apiKey, '{ meteredEcho(text: "x") meteredTwo }');
    const body = res.json();
    expect(body.data ?? null).toBeNull();
    expect(body.errors[0].extensions).toMatchObject({ code: 'INSUFFICIENT_CREDITS', required: 3, available: 2 });
    expect(body.errors[0].message).toMatch(/meteredEcho \+ meteredTwo requires 3 credits.*2 credits/);
    expect(await stats(apiKey)).toMatchObject({ creditBalance: 2, creditUsage: 0 });
    expect((await ledger(id)).filter((r) => r.kind === 'charge')).toEqual([]);
  });

  it('requires a key for paid fields, and rejects a wrong key even for free ones', async () => {
    const noKey = (await gql(undefined, '{ meteredTwo }')).json();
    expect(noKey.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const wrong = await gql('cgk_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '{ meteredTwo }');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('keeps balance + usage equal to the credits granted', async () => {
    const { id, apiKey } = await app.partner(20);
    for (const q of [
      '{ meteredTwo }',
      '{ meteredFails }',
      '{ meteredEcho(text: "z") meteredTwo }',
      '{ meteredFails(how: "input") }',
    ]) {
      await gql(apiKey, q);
    }
    const s = await stats(apiKey);
    const granted = (await ledger(id)).filter((r) => r.kind === 'grant').reduce((n, r) => n + Number(r.credits), 0);
    expect(s.creditBalance + s.creditUsage).toBe(granted);
    expect(s.creditUsage).toBe(5);
  });
});
