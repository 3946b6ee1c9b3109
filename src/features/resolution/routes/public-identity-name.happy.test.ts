import { describe, expect, it } from 'vitest';
import { ALICE, ALICE_TESTNET, BOB, EVM_LOOKING, longForm, shortForm } from '../../../../test/fixtures/mns/index.js';
import { useNamesApp } from '../names-app.test-helper.js';

describe('GET /api/public/identity/name', () => {
  const app = useNamesApp();

  const get = (address: string, caip2Id: string) =>
    app.http.inject({ method: 'GET', url: '/api/public/identity/name', query: { address, caip2Id } });

  it('answers the primary name of an address, whatever its case and leading zeros', async () => {
    for (const address of [ALICE, ALICE.toLowerCase(), longForm(ALICE), shortForm(ALICE)]) {
      const res = await get(address, 'move-mvmt:126');
      expect(res.statusCode, address).toBe(200);
      expect(res.json()).toEqual({ name: 'alice.snow', owner: ALICE });
    }
  });

  it('looks on the network asked for, and on every network with *, mainnet first', async () => {
    expect((await get(ALICE_TESTNET, 'move-mvmt:testnet')).json()).toEqual({
      name: 'alice.snow',
      owner: ALICE_TESTNET,
    });
    expect((await get(longForm(BOB), 'move-mvmt:*')).json()).toEqual({ name: 'bob.snow', owner: BOB });
    expect((await get(ALICE, 'move-mvmt:*')).json()).toEqual({ name: 'alice.snow', owner: ALICE });
    expect((await get(BOB, 'move-mvmt:126')).statusCode).toBe(404);
  });

  it('reads a 20-byte, EVM-looking address as a Move address with leading zeros', async () => {
    expect((await get(EVM_LOOKING.toLowerCase(), 'move-mvmt:126')).json()).toEqual({
      name: 'evm.snow',
      owner: EVM_LOOKING,
    });
    expect((await get(longForm(EVM_LOOKING), 'move-mvmt:126')).json()).toEqual({
      name: 'evm.snow',
      owner: EVM_LOOKING,
    });
  });
});
