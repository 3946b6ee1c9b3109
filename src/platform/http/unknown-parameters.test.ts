import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/use-app.js';
import { closestName } from './unknown-parameters.js';

describe('closestName', () => {
  it('matches a name written another way, or one or two edits off, and nothing far', () => {
    const known = ['query', 'page', 'perPage'];
    expect(closestName('per_page', known)).toBe('perPage');
    expect(closestName('PERPAGE', known)).toBe('perPage');
    expect(closestName('perpage', known)).toBe('perPage');
    expect(closestName('perPag', known)).toBe('perPage');
    expect(closestName('qeury', known)).toBe('query');
    expect(closestName('limit', known)).toBeUndefined();
    expect(closestName('p', known)).toBeUndefined();
  });
});

describe('unknown parameters', () => {
  const app = useTestApp();

  const usage = async (id: string) =>
    Number(
      (await app.services.db.query<{ u: number }>('select credit_usage as u from partner where id = ?', [id]))[0]?.u,
    );

  it('refuses a misspelt parameter of a paid partner path with a free 400 naming it and its likely meaning', async () => {
    const { id, apiKey } = await app.partner(5);
    const res = await app.http.inject({
      method: 'GET',
      url: '/partners/cip/identity/search?query=alice&per_page=5',
      headers: { 'x-api-key': apiKey },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Unknown query parameter "per_page"; did you mean "perPage"?',
    });
    expect(res.headers['x-credits-charged']).toBeUndefined();
    await app.services.ledger.whenSettled(id);
    expect(await usage(id)).toBe(0);
  });

  it('names what a path takes when nothing is close, and refuses unknown body fields', async () => {
    const { apiKey } = await app.partner(5);
    const stats = await app.http.inject({
      method: 'GET',
      url: '/partners/stats?verbose=1',
      headers: { 'x-api-key': apiKey },
    });
    expect([stats.statusCode, stats.json().message]).toEqual([
      400,
      'Unknown query parameter "verbose"; this path takes no query parameters',
    ]);
    const register = await app.http.inject({
      method: 'POST',
      url: '/partners/webhooks',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: { url: 'https://example.com/hook', secret: 'x' },
    });
    expect([register.statusCode, register.json().message]).toEqual([
      400,
      'Unknown body field "secret"; this path takes "url"',
    ]);
  });

  it('takes the parameters a partner path documents, and keeps public paths accepting extra ones', async () => {
    const { apiKey } = await app.partner(5);
    const list = await app.http.inject({ method: 'GET', url: '/partners/webhooks', headers: { 'x-api-key': apiKey } });
    expect(list.statusCode).toBe(200);
    const deliveries = await app.http.inject({
      method: 'GET',
      url: '/partners/webhooks/00000000-0000-4000-8000-000000000000/deliveries?limit=5',
      headers: { 'x-api-key': apiKey },
    });
    // Not refused as an unknown parameter: the webhook itself is what is missing.
    expect(deliveries.statusCode).toBe(404);
    const pub = await app.http.inject({
      method: 'GET',
      url: `/api/public/identity/name?address=0x${'a'.repeat(64)}&caip2Id=move-mvmt:126&utm_source=x`,
    });
    // A name or a 404 for an address without one: never a 400 for the extra parameter.
    expect([200, 404]).toContain(pub.statusCode);
  });
});
