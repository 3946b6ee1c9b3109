import { describe, expect, it } from 'vitest';
import { ALICE, ALICE_TESTNET, BOB, NO_RESOLVER, PAY_ALICE, RESOLVER } from '../../../../test/fixtures/mns/index.js';
import { useNamesApp } from '../names-app.test-helper.js';

describe('GET /api/public/identity/address', () => {
  const app = useNamesApp();

  const get = (name: string, caip2Id: string) =>
    app.http.inject({ method: 'GET', url: '/api/public/identity/address', query: { name, caip2Id } });

  it('answers owner, resolver, network and live sub-names of an imported name', async () => {
    const res = await get('alice.snow', 'move-mvmt:126');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      owner: ALICE,
      resolverAddress: RESOLVER,
      caip2Id: 'move-mvmt:126',
      // old.pay.alice.snow has expired and is not listed.
      subIdentities: [{ name: 'pay.alice.snow', address: PAY_ALICE }],
    });
  });

  it('reads a bare label as <label>.snow, ignores case, and knows the network aliases', async () => {
    for (const [name, caip2Id, owner] of [
      ['alice', 'move-mvmt:mainnet', ALICE],
      ['ALICE.Snow', 'move-mvmt:126', ALICE],
      ['alice', 'move-mvmt:testnet', ALICE_TESTNET],
      ['alice.snow', 'move-mvmt:177', ALICE_TESTNET],
    ] as const) {
      const res = await get(name, caip2Id);
      expect(res.statusCode, `${name} on ${caip2Id}`).toBe(200);
      expect(res.json().owner).toBe(owner);
    }
  });

  it('covers every network with move-mvmt:*, mainnet winning', async () => {
    expect((await get('alice', 'move-mvmt:*')).json()).toMatchObject({ owner: ALICE, caip2Id: 'move-mvmt:126' });
    expect((await get('bob', 'move-mvmt:*')).json()).toMatchObject({ owner: BOB, caip2Id: 'move-mvmt:177' });
  });

  it('answers a null resolver and no sub-names where the registry has none', async () => {
    const res = await get('noresolver', 'move-mvmt:126');
    expect(res.json()).toEqual({
      owner: NO_RESOLVER,
      resolverAddress: null,
      caip2Id: 'move-mvmt:126',
      subIdentities: [],
    });
  });

  it("answers another chain's id from the name's multichain records, owner staying the Movement target", async () => {
    const res = await get('alice', 'eip155:1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      owner: ALICE,
      resolverAddress: '0x000000000000000000000000000000000000dEaD',
      caip2Id: 'eip155:1',
    });
    expect((await get('bob', 'eip155:1')).statusCode).toBe(404);
  });

  it('knows move-mvmt:250 (Bardock), where the fixture has no names', async () => {
    expect((await get('alice', 'move-mvmt:250')).statusCode).toBe(404);
  });

  it('resolves a sub-name itself', async () => {
    const res = await get('pay.alice', 'move-mvmt:126');
    expect(res.json()).toMatchObject({ owner: PAY_ALICE, subIdentities: [] });
  });
});
