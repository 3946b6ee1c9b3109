import { ApolloServer } from '@apollo/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postGraphql } from '../../../test/support/graphql.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { useTestApp } from '../../../test/support/use-app.js';

/**
 * /graphql answers single-fetch operations without Apollo Server's pipeline (graphql-direct.ts, through gateway/pipeline.ts). Each
 * case is sent twice: as is (the direct path) and with `extensions: {}`, which the direct path leaves to
 * Apollo. Both must answer the same status, headers and body, and charge the same.
 */
describe('/graphql direct path', () => {
  const app = useTestApp({}, { subgraphs: withMetered() });
  const apollo = vi.spyOn(ApolloServer.prototype, 'executeHTTPGraphQLRequest');
  afterEach(() => apollo.mockClear());

  const usage = async (partnerId: string) =>
    Number(
      (await app.services.db.query<{ u: number }>('select credit_usage as u from partner where id = ?', [partnerId]))[0]
        ?.u,
    );

  /**
   * Sends the payload both ways, as a new partner holding `credits` (without a key when null);
   * returns both answers with the credits each charged.
   */
  async function both(payload: Record<string, unknown>, credits: number | null = 10) {
    const partner = credits === null ? undefined : await app.partner(credits);
    const used = async () => (partner ? usage(partner.id) : 0);
    const answers = [];
    for (const viaApollo of [false, true]) {
      const before = await used();
      apollo.mockClear();
      const res = await postGraphql(app, viaApollo ? { ...payload, extensions: {} } : payload, partner?.apiKey);
      if (partner) await app.services.ledger.whenSettled(partner.id);
      answers.push({
        status: res.statusCode,
        body: res.body,
        contentType: res.headers['content-type'],
        cacheControl: res.headers['cache-control'],
        charged: res.headers['x-credits-charged'],
        usage: (await used()) - before,
        apollo: apollo.mock.calls.length,
      });
    }
    const [direct, gateway] = answers as [(typeof answers)[0], (typeof answers)[0]];
    return { direct, gateway };
  }

  const same = (direct: Record<string, unknown>, gateway: Record<string, unknown>) => {
    // The remaining balance differs by what the first call charged; everything else is byte-equal.
    const strip = (answer: Record<string, unknown>) => ({
      ...answer,
      apollo: undefined,
      body: String(answer.body).replace(/"remaining":\d+/, '"remaining":_'),
    });
    expect(strip(direct)).toEqual(strip(gateway));
    expect(direct.apollo).toBe(0);
    expect(gateway.apollo).toBe(1);
  };

  it('answers and charges a paid field like the gateway, without running Apollo', async () => {
    const { direct, gateway } = await both({ query: '{ meteredEcho(text: "hi") }' });
    same(direct, gateway);
    expect(direct).toMatchObject({
      status: 200,
      charged: '1',
      usage: 1,
      contentType: 'application/json; charset=utf-8',
    });
    expect(JSON.parse(direct.body)).toEqual({
      data: { meteredEcho: 'hi' },
      extensions: { credits: { charged: 1, remaining: 9 } },
    });
  });

  it('coerces variables and honours operationName', async () => {
    const query = 'query A($t: String!) { meteredEcho(text: $t) } query B { meteredTwo }';
    const { direct, gateway } = await both({ query, operationName: 'A', variables: { t: 'x' } });
    same(direct, gateway);
    expect(direct.usage).toBe(1);
    const b = await both({ query, operationName: 'B' });
    same(b.direct, b.gateway);
    expect(b.direct.usage).toBe(2);
  });

  it('coerces list variables as graphql-js does', async () => {
    const query = 'query($a: [String!]!, $c: String) { primaryNames(addresses: $a, caip2Id: $c) { address name } }';
    // A single value stands for a list of one; an absent nullable variable is left out.
    for (const variables of [{ a: '0x1' }, { a: ['0x1', '0x0000AbC2'], c: null }, { a: [], c: 'move-mvmt:126' }]) {
      const { direct, gateway } = await both({ query, variables });
      same(direct, gateway);
      expect([variables, direct.status]).toEqual([variables, 200]);
    }
  });

  it('words field errors the same way: an outage is a free 503, a bug is redacted, a partial answer pays for what answered', async () => {
    const outage = await both({ query: '{ meteredFails }' });
    same(outage.direct, outage.gateway);
    expect(outage.direct).toMatchObject({ status: 503, usage: 0, charged: '0' });

    const bug = await both({ query: '{ meteredBug }' });
    same(bug.direct, bug.gateway);
    expect(bug.direct.body).not.toContain('secret internal detail');
    expect(bug.direct.usage).toBe(0);

    const partial = await both({ query: '{ meteredFails(how: "input") meteredTwo }' });
    same(partial.direct, partial.gateway);
    expect(partial.direct).toMatchObject({ status: 200, usage: 2, charged: '2' });
  });

  it('answers a free public lookup without a key', async () => {
    const query = '{ primaryName(caip2Id: "move-mvmt:126", address: "0x1") { name } }';
    apollo.mockClear();
    const direct = await postGraphql(app, { query });
    const gateway = await postGraphql(app, { query, extensions: {} });
    expect(direct.statusCode).toBe(gateway.statusCode);
    expect(direct.body).toBe(gateway.body);
    expect(apollo).toHaveBeenCalledTimes(1);
  });

  it('runs an operation over two subgraphs through Apollo Gateway, loaded on first use, charging the same', async () => {
    const { id, apiKey } = await app.partner(10);
    apollo.mockClear();
    const res = await postGraphql(
      app,
      { query: '{ meteredTwo primaryName(caip2Id: "move-mvmt:126", address: "0x1") { name } }' },
      apiKey,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { meteredTwo: 2, primaryName: null },
      errors: [{ path: ['primaryName'], extensions: { code: 'NOT_FOUND' } }],
      extensions: { credits: { charged: 2, remaining: 8 } },
    });
    expect(apollo).toHaveBeenCalledTimes(1);
    await app.services.ledger.whenSettled(id);
    expect(await usage(id)).toBe(2);
  });

  it('answers refusals and bad variables itself, in the status and words Apollo gives, charging nothing', async () => {
    const quote = {
      fromChain: 'eip155:1',
      toChain: 'eip155:8453',
      fromToken: '0x0000000000000000000000000000000000000000',
      toToken: '0x0000000000000000000000000000000000000000',
      fromAmount: '1',
      fromAddress: '0x0000000000000000000000000000000000000001',
    };
    // [payload, the partner's credits (undefined: no key), status]
    const cases: [Record<string, unknown>, number | undefined, number][] = [
      [{ query: '{ meteredTwo }' }, undefined, 401],
      [{ query: '{ meteredTwo }' }, 1, 400],
      [{ query: 'query($t: String!) { meteredEcho(text: $t) }', variables: { t: 5 } }, 1, 400],
      [{ query: 'query($t: String!) { meteredEcho(text: $t) }', variables: {} }, 1, 400],
      [{ query: 'query($t: String!) { meteredEcho(text: $t) }', variables: { t: null } }, 1, 400],
      [{ query: 'query($t: String!) { meteredEcho(text: $t) }', variables: { t: ['a'] } }, 1, 400],
      [{ query: 'query($t: String!) { meteredEcho(text: $t) }', variables: { t: { a: 1 } } }, 1, 400],
      ...[['0x1', 5], ['0x1', null], [[]], 7, null].map((a): [Record<string, unknown>, number, number] => [
        { query: 'query($a: [String!]!) { primaryNames(addresses: $a) { name } }', variables: { a } },
        1,
        400,
      ]),
      // An input object with a field its type lacks: refused before any credit hold, though 10 would pay.
      [
        {
          query: 'query($q: BridgeQuoteInput!) { bridgeQuote(input: $q) { id } }',
          variables: { q: { ...quote, unknownField: 1 } },
        },
        10,
        400,
      ],
    ];
    for (const [payload, credits, status] of cases) {
      const { direct, gateway } = await both(payload, credits ?? null);
      expect([JSON.stringify(payload), direct.status]).toEqual([JSON.stringify(payload), status]);
      same(direct, gateway);
      expect([direct.usage, gateway.usage]).toEqual([0, 0]);
    }
  });

  it('leaves invalid documents to Apollo, charging nothing', async () => {
    const { id, apiKey } = await app.partner(1);
    const cases: Record<string, unknown>[] = [
      { query: '{ meteredNope }' },
      { query: '{ meteredEcho(text: "a") } { meteredTwo }' },
      // Long documents are parsed by Apollo alone, so an oversized one is never parsed twice.
      { query: `{ meteredNope }\n#${'x'.repeat(9000)}` },
    ];
    for (const payload of cases) {
      apollo.mockClear();
      const res = await postGraphql(app, payload, apiKey);
      expect([JSON.stringify(payload).slice(0, 80), res.statusCode]).toEqual([
        JSON.stringify(payload).slice(0, 80),
        400,
      ]);
      expect(apollo).toHaveBeenCalledTimes(1);
    }
    await app.services.ledger.whenSettled(id);
    expect(await usage(id)).toBe(0);
  });
});
