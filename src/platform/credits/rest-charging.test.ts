import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/use-app.js';

// The REST paths run through the same credit plugin as GraphQL; these pin down what partners see.
describe('credits on the REST paths', () => {
  const app = useTestApp();

  const get = (url: string, apiKey: string) =>
    app.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const balance = async (apiKey: string) => (await get('/partners/stats', apiKey)).json();
  const QUOTE =
    '/partners/bridge/quote?fromChain=eip155:1&toChain=eip155:8453&fromToken=0x0000000000000000000000000000000000000000' +
    '&toToken=0x0000000000000000000000000000000000000000&fromAmount=1000000000000000000&fromAddress=0x1111111111111111111111111111111111111111';

  it('refuses with a 400 naming the operation, the credits required and the balance available', async () => {
    const { apiKey } = await app.partner(1);
    const res = await get(QUOTE, apiKey);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      message:
        'Insufficient credits: GET /partners/bridge/quote requires 2 credits, but the balance available is 1 credit',
      error: 'Bad Request',
    });
    expect(await balance(apiKey)).toMatchObject({ creditBalance: 1, creditUsage: 0 });
  });

  it('charges each route its declared price after a 200, and nothing for a 4xx', async () => {
    const { apiKey } = await app.partner(10, 'Sandbox Partner', { sandbox: true });
    expect((await get('/partners/bridge/chains', apiKey)).statusCode).toBe(200);
    expect((await get('/partners/bridge/tokens?caip2Id=eip155:1', apiKey)).statusCode).toBe(200);
    expect((await get(QUOTE, apiKey)).statusCode).toBe(200);
    expect(await balance(apiKey)).toMatchObject({ creditBalance: 6, creditUsage: 4 });
    expect((await get('/partners/bridge/tokens?caip2Id=eip155:999999', apiKey)).statusCode).toBe(400);
    expect((await get('/partners/cip/identity/search?query=alice&perPage=51', apiKey)).statusCode).toBe(400);
    expect(await balance(apiKey)).toMatchObject({ creditBalance: 6, creditUsage: 4 });
  });
});
