import { describe, expect, it } from 'vitest';
import { ALICE, ALICE_TESTNET, BOB, NO_RESOLVER, RESOLVER } from '../../../../test/fixtures/mns/index.js';
import { useNamesApp } from '../names-app.test-helper.js';

describe.each(['/api/public/public-identity/addresses', '/api/public/identity/addresses'])('POST %s', (url) => {
  const app = useNamesApp();

  const post = (payload: unknown) => app.http.inject({ method: 'POST', url, payload: payload as object });

  it('answers {owner, resolverAddress} per name in input order, keeping the place of unknown and expired names', async () => {
    const res = await post({
      caip2Id: 'move-mvmt:126',
      names: ['noresolver', 'nobody.snow', 'ALICE', 'old.snow', 'alice.snow'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { owner: NO_RESOLVER, resolverAddress: null },
        { owner: null, resolverAddress: null },
        { owner: ALICE, resolverAddress: RESOLVER },
        { owner: null, resolverAddress: null },
        { owner: ALICE, resolverAddress: RESOLVER },
      ],
    });
  });

  it('resolves per network, with mainnet winning under *', async () => {
    const testnet = await post({ caip2Id: 'move-mvmt:testnet', names: ['alice', 'bob'] });
    expect(testnet.json().data.map((d: { owner: string }) => d.owner)).toEqual([ALICE_TESTNET, BOB]);
    const all = await post({ caip2Id: 'move-mvmt:*', names: ['alice', 'bob'] });
    expect(all.json().data.map((d: { owner: string }) => d.owner)).toEqual([ALICE, BOB]);
  });

  it('answers an empty list for no names', async () => {
    expect((await post({ caip2Id: 'move-mvmt:126', names: [] })).json()).toEqual({ data: [] });
  });
});
