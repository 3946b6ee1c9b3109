import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { partnerBooks } from '../../../test/support/app.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { useTestApp } from '../../../test/support/use-app.js';

/**
 * Batched /graphql (a JSON array, as Apollo Client's BatchHttpLink sends): each operation runs as its own
 * request would, through the same pipeline, limits and charge; the batch is bounded and rate-limited per
 * operation.
 */
describe('/graphql batches', () => {
  const app = useTestApp({ GRAPHQL_MAX_BATCH: '4', RATE_LIMIT_PARTNER_MAX: '8' }, { subgraphs: withMetered() });

  const books = (id: string) => partnerBooks(app, id);

  const post = (payload: unknown, apiKey?: string) =>
    app.http.inject({
      method: 'POST',
      url: '/graphql',
      remoteAddress: `10.${randomBytes(3).join('.')}`,
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
      payload: JSON.stringify(payload),
    });

  it('answers each operation in order, charging exactly the sum of the delivered ones', async () => {
    const { id, apiKey } = await app.partner(10);
    const res = await post(
      [
        { query: '{ meteredEcho(text: "a") }' },
        { query: 'query Two { meteredTwo }', operationName: 'Two' },
        { query: '{ meteredNope }' },
        { query: 'query($t: String!) { meteredEcho(text: $t) }', variables: { t: 5 } },
      ],
      apiKey,
    );
    expect(res.statusCode).toBe(200);
    const results = res.json() as { data?: unknown; errors?: { extensions?: { code?: string } }[] }[];
    expect(results).toHaveLength(4);
    expect(results[0]?.data).toEqual({ meteredEcho: 'a' });
    expect(results[1]?.data).toEqual({ meteredTwo: 2 });
    expect(results[2]?.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(results[3]?.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.headers['x-credits-charged']).toBe('3');
    expect(await books(id)).toEqual({ balance: 7, usage: 3 });
  });

  it('holds each operation to its own price: one the balance no longer covers is refused, free', async () => {
    const { id, apiKey } = await app.partner(2);
    const res = await post([{ query: '{ meteredTwo }' }, { query: '{ meteredEcho(text: "b") }' }], apiKey);
    const results = res.json() as { data?: unknown; errors?: { extensions?: { code?: string } }[] }[];
    expect(results[0]?.data).toEqual({ meteredTwo: 2 });
    expect(results[1]?.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_CREDITS');
    expect(await books(id)).toEqual({ balance: 0, usage: 2 });
  });

  it('refuses an empty batch, one over GRAPHQL_MAX_BATCH and one with an Idempotency-Key, free', async () => {
    const { id, apiKey } = await app.partner(10);
    const five = Array.from({ length: 5 }, () => ({ query: '{ meteredEcho(text: "c") }' }));
    const over = await post(five, apiKey);
    expect([over.statusCode, over.json().errors[0].message]).toEqual([
      400,
      'A batch may hold at most 4 operations (GRAPHQL_MAX_BATCH)',
    ]);
    expect((await post([], apiKey)).statusCode).toBe(400);
    const keyed = await app.http.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': 'k1' },
      payload: JSON.stringify([{ query: '{ meteredEcho(text: "d") }' }]),
    });
    expect(keyed.statusCode).toBe(400);
    expect(await books(id)).toEqual({ balance: 10, usage: 0 });
  });

  it('counts every operation against the rate limit: batching is no way around it', async () => {
    const { id, apiKey } = await app.partner(100);
    const four = Array.from({ length: 4 }, () => ({ query: '{ meteredEcho(text: "e") }' }));
    expect((await post(four, apiKey)).statusCode).toBe(200);
    expect((await post(four, apiKey)).statusCode).toBe(200);
    // 8 operations used the partner's 8 requests for the window: the next batch is refused before running.
    const limited = await post(four, apiKey);
    expect(limited.statusCode).toBe(429);
    expect(await books(id)).toEqual({ balance: 92, usage: 8 });
  });

  it('answers a malformed item with its own BAD_REQUEST result, never a failure of the batch, charging nothing', async () => {
    const { id, apiKey } = await app.partner(10);
    const res = await post(
      [
        null,
        { query: 5 },
        { query: '{ meteredEcho(text: "f") }', variables: 'x' },
        { query: '{ meteredEcho(text: "g") }' },
      ],
      apiKey,
    );
    expect(res.statusCode).toBe(200);
    const results = res.json() as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] }[];
    expect(results.slice(0, 3).map((r) => r.errors?.[0]?.extensions?.code)).toEqual([
      'BAD_REQUEST',
      'BAD_REQUEST',
      'BAD_REQUEST',
    ]);
    expect(results[2]?.errors?.[0]?.message).toMatch(/variables/);
    expect(results[3]?.data).toEqual({ meteredEcho: 'g' });
    expect(await books(id)).toEqual({ balance: 9, usage: 1 });
  });

  it('holds each operation of a batch to the nesting limit', async () => {
    const deep = `{ ${'a {'.repeat(300)}${'}'.repeat(300)} }`;
    const res = await post([{ query: '{ __typename }' }, { query: deep }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
