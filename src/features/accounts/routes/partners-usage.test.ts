import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/support/use-app.js';

// Partner self-service: what the credit headers announce is what the ledger charges, and what
// /partners/usage reports is what the ledger holds.
describe('partner usage, keys and credit headers', () => {
  const app = useTestApp();

  const get = (url: string, apiKey: string) =>
    app.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const graphql = (query: string, apiKey: string, variables = {}) =>
    app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-api-key': apiKey },
      payload: { query, variables },
    });
  const QUOTE =
    '/partners/bridge/quote?fromChain=eip155:1&toChain=eip155:8453&fromToken=0x0000000000000000000000000000000000000000' +
    '&toToken=0x0000000000000000000000000000000000000000&fromAmount=1000000000000000000&fromAddress=0x1111111111111111111111111111111111111111';

  const ledger = async (partnerId: string) =>
    (
      await app.services.db.query<{ operation: string; credits: number | string }>(
        "select operation, credits from ledger_entry where partner_id = ? and kind = 'charge'",
        [partnerId],
      )
    ).map((r) => ({ operation: r.operation, credits: Number(r.credits) }));

  it('announces each answer’s charge and remaining balance, and usage totals equal the ledger after a mixed run', async () => {
    const { id, apiKey } = await app.partner(20, 'Sandbox Partner', { sandbox: true });
    let announced = 0;
    const paid = async (res: Awaited<ReturnType<typeof get>>, price: number, balanceAfter: number) => {
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-credits-charged']).toBe(String(price));
      expect(res.headers['x-credits-remaining']).toBe(String(balanceAfter));
      announced += price;
    };
    await paid(await get('/partners/bridge/chains', apiKey), 1, 19);
    await paid(await get('/partners/bridge/tokens?caip2Id=eip155:1', apiKey), 1, 18);
    await paid(await get(QUOTE, apiKey), 2, 16);
    // A refused call (bad input) announces nothing and is not charged.
    const refused = await get('/partners/bridge/tokens?caip2Id=eip155:999999', apiKey);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['x-credits-charged']).toBeUndefined();
    // GraphQL: the same numbers as headers and as the `credits` extension.
    const gql = await graphql('{ bridgeChains { caip2Id } stats { creditBalance } }', apiKey);
    expect(gql.statusCode).toBe(200);
    expect(gql.headers['x-credits-charged']).toBe('1');
    expect(gql.headers['x-credits-remaining']).toBe('15');
    expect(gql.json().extensions).toEqual({ credits: { charged: 1, remaining: 15 } });
    announced += 1;

    // Free calls say so, and really are free.
    const stats = await get('/partners/stats', apiKey);
    expect(stats.headers['x-credits-charged']).toBe('0');
    expect(stats.headers['x-credits-remaining']).toBe('15');
    expect(stats.json()).toMatchObject({ creditBalance: 15, creditUsage: 5 });

    const usage = await get('/partners/usage?granularity=hour', apiKey);
    expect(usage.statusCode).toBe(200);
    expect(usage.headers['x-credits-charged']).toBe('0');
    const body = usage.json();
    const charges = await ledger(id);
    const ledgerTotal = charges.reduce((s, c) => s + c.credits, 0);
    expect(ledgerTotal).toBe(announced);
    expect(body.totalCredits).toBe(ledgerTotal);
    expect(body.granularity).toBe('hour');
    const byOperation = (rows: { operation: string; credits: number }[]) =>
      rows.reduce<Record<string, number>>((acc, r) => {
        acc[r.operation] = (acc[r.operation] ?? 0) + r.credits;
        return acc;
      }, {});
    expect(byOperation(body.periods)).toEqual(byOperation(charges));
    expect(byOperation(body.periods)).toEqual({ bridgeChains: 2, bridgeTokens: 1, bridgeQuote: 2 });
    const hour = new Date().toISOString().slice(0, 13);
    for (const row of body.periods)
      expect(row.period).toMatch(new RegExp(`^${hour}:00:00Z$|^\\d{4}-\\d{2}-\\d{2}T\\d{2}:00:00Z$`));
    expect(body.periods.find((r: { operation: string }) => r.operation === 'bridgeChains').calls).toBe(2);

    // By day, over GraphQL, for free.
    const daily = await graphql(
      'query($from: String) { usage(from: $from, granularity: day) { totalCredits periods { period operation credits } } }',
      apiKey,
      { from: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) },
    );
    expect(daily.json().data.usage.totalCredits).toBe(ledgerTotal);
    expect(daily.json().data.usage.periods[0].period).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    expect(daily.json().extensions.credits.charged).toBe(0);

    const after = await get('/partners/stats', apiKey);
    expect(after.json()).toMatchObject({ creditBalance: 15, creditUsage: 5 });
  });

  it('only counts the caller’s own charges within the range', async () => {
    const { apiKey } = await app.partner(5, 'Sandbox Partner', { sandbox: true });
    const future = await get('/partners/usage?from=2099-01-01&to=2099-01-02', apiKey);
    expect(future.json()).toMatchObject({ totalCredits: 0, periods: [], from: '2099-01-01T00:00:00.000Z' });
    const mine = await get('/partners/usage', apiKey);
    expect(mine.json()).toMatchObject({ totalCredits: 0, periods: [], granularity: 'day' });
  });

  it.each([
    ['granularity=week', /granularity/],
    ['from=yesterday', /from must be an ISO 8601/],
    // V8 reads these as 2 March, 1 May and 1 March: an impossible day is refused, not rolled over.
    ['from=2026-02-30', /from must be an ISO 8601 date or date-time of a real day.*"2026-02-30"/],
    ['from=2026-01-01&to=2026-04-31T00:00:00Z', /to must be an ISO 8601.*real day/],
    ['from=2025-02-29T12:00:00%2B01:00', /from must be an ISO 8601.*real day/],
    ['from=2026-00-10', /from must be an ISO 8601/],
    ['from=2026-11-02&to=2026-11-01', /from must be before to/],
    ['from=2020-01-01&to=2026-01-01', /too long/],
    ['from=2026-01-01&to=2026-03-01&granularity=hour', /too long/],
  ])('answers a free 400 for %s', async (query, message) => {
    const { apiKey } = await app.partner(3);
    const res = await get(`/partners/usage?${query}`, apiKey);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(message),
    });
    expect((await get('/partners/stats', apiKey)).json()).toMatchObject({ creditBalance: 3, creditUsage: 0 });
  });

  it('refuses an impossible day over GraphQL too, free, and still takes 29 February of a leap year', async () => {
    const { apiKey } = await app.partner(3);
    const query = 'query ($from: String) { usage(from: $from, to: "2028-03-01") { from totalCredits } }';
    const bad = await graphql(query, apiKey, { from: '2026-02-30' });
    expect(bad.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/from must be an ISO 8601 date or date-time of a real day/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const leap = await graphql(query, apiKey, { from: '2028-02-29' });
    expect(leap.json().data.usage).toEqual({ from: '2028-02-29T00:00:00.000Z', totalCredits: 0 });
    expect((await get('/partners/stats', apiKey)).json()).toMatchObject({ creditBalance: 3, creditUsage: 0 });
  });

  it('requires a key', async () => {
    expect((await app.http.inject({ method: 'GET', url: '/partners/usage' })).statusCode).toBe(401);
    expect((await app.http.inject({ method: 'GET', url: '/partners/keys' })).statusCode).toBe(401);
    const anonymous = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: '{ apiKeys { prefix } }' },
    });
    expect(anonymous.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('lists the caller’s keys with when they were last used, never a secret', async () => {
    const { id, apiKey } = await app.partner(3);
    const other = await app.partner(3);
    await app.services.db.run("update api_key set label = 'second' where partner_id = ?", [other.id]);
    const res = await get('/partners/keys', apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-credits-charged']).toBe('0');
    const { keys } = res.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ prefix: apiKey.slice(0, 12), label: 'initial', revokedAt: null });
    expect(Date.parse(keys[0].createdAt)).toBeGreaterThan(0);
    // The request itself used the key: recorded without waiting for it, so poll briefly.
    let lastUsed: string | null = null;
    for (let i = 0; i < 50 && !lastUsed; i++) {
      const rows = await app.services.db.query<{ last_used_at: string | null }>(
        'select last_used_at from api_key where partner_id = ?',
        [id],
      );
      lastUsed = rows[0]?.last_used_at ?? null;
      if (!lastUsed) await new Promise((r) => setTimeout(r, 20));
    }
    expect(lastUsed).not.toBeNull();
    const again = (await get('/partners/keys', apiKey)).json().keys[0];
    expect(Math.abs(Date.parse(again.lastUsedAt) - Date.now())).toBeLessThan(60_000);
    expect(JSON.stringify(again)).not.toContain(apiKey.slice(13));
  });
});
