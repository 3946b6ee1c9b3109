import { describe, expect, it, vi } from 'vitest';
import {
  ALICE,
  ALICE_TESTNET,
  BOB,
  EVM_LOOKING,
  EXPIRED_OWNER,
  longForm,
  shortForm,
} from '../../../../test/fixtures/mns/index.js';
import type { TestApp } from '../../../../test/support/app.js';
import { useNamesApp } from '../names-app.test-helper.js';

const lookup = (app: TestApp) => (address: string, caip2Id: string) =>
  app.http.inject({ method: 'GET', url: '/api/public/identity/name', query: { address, caip2Id } });

describe('GET /api/public/identity/name', () => {
  const app = useNamesApp();

  const get = lookup(app);

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

describe('GET /api/public/identity/name, requests that arrive together', () => {
  // The in-process rate limiter: with Redis, each request's count is a round trip of its own, so the
  // requests would reach their lookups in different turns of the event loop.
  const app = useNamesApp({ REDIS_URL: '' });

  const get = lookup(app);

  it('answers the lookups of one turn with one statement per network', async () => {
    const query = vi.spyOn(app.services.db, 'queryRows');
    try {
      const answers = await Promise.all([ALICE, BOB, EXPIRED_OWNER].map((address) => get(address, 'move-mvmt:*')));
      expect(answers.map((res) => [res.statusCode, res.json().name])).toEqual([
        [200, 'alice.snow'],
        [200, 'bob.snow'],
        [404, undefined],
      ]);
      // Three requests on three networks: one statement per network, not one per request and network.
      // Counted on the registry only: background sweepers share the database handle.
      expect(query.mock.calls.filter(([sql]) => String(sql).includes('mns_name'))).toHaveLength(3);
    } finally {
      query.mockRestore();
    }
  });
});
