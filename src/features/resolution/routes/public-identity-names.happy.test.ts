import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ALICE,
  ALICE_TESTNET,
  BOB,
  EVM_LOOKING,
  EXPIRED_OWNER,
  importNamesFile,
  jsonlFile,
  longForm,
  shortForm,
} from '../../../../test/fixtures/mns/index.js';
import { useNamesApp } from '../names-app.test-helper.js';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const MAINNET_OWNERS = 600;
const TESTNET_OWNERS = 200;

describe('POST /api/public/identity/names', () => {
  const app = useNamesApp();
  beforeAll(async () => {
    // Owners 0x…1000.. are primary on mainnet, 0x…5000.. on testnet.
    const bulk = jsonlFile([
      ...Array.from({ length: MAINNET_OWNERS }, (_, i) => ({
        name: `m${i}`,
        caip2Id: 'move-mvmt:126',
        owner: hex(0x1000 + i),
        primary: true,
      })),
      ...Array.from({ length: TESTNET_OWNERS }, (_, i) => ({
        name: `t${i}`,
        caip2Id: 'move-mvmt:177',
        owner: hex(0x5000 + i),
        primary: true,
      })),
    ]);
    expect((await importNamesFile(app.database.url, bulk)).code).toBe(0);
  });

  const post = (payload: unknown) =>
    app.http.inject({ method: 'POST', url: '/api/public/identity/names', payload: payload as object });

  it('keys each primary name by the address exactly as sent and leaves out addresses without one', async () => {
    const addresses = [ALICE.toLowerCase(), shortForm(ALICE), longForm(BOB), EXPIRED_OWNER, hex(0xdead), EVM_LOOKING];
    const res = await post({ caip2Id: 'move-mvmt:126', addresses });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        [ALICE.toLowerCase()]: { name: 'alice.snow', owner: ALICE },
        [shortForm(ALICE)]: { name: 'alice.snow', owner: ALICE },
        [EVM_LOOKING]: { name: 'evm.snow', owner: EVM_LOOKING },
      },
    });
  });

  it('answers an address sent twice once, at its first place', async () => {
    // The text, not res.json(): JSON.parse would quietly keep one of two equal keys.
    const res = await post({ addresses: [BOB, hex(0xdead), ALICE, ALICE, BOB] });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      `{"data":{"${BOB}":{"name":"bob.snow","owner":"${BOB}"},"${ALICE}":{"name":"alice.snow","owner":"${ALICE}"}}}`,
    );
  });

  it('covers every network without a caip2Id or with *, mainnet winning', async () => {
    const expected = {
      data: { [ALICE]: { name: 'alice.snow', owner: ALICE }, [BOB]: { name: 'bob.snow', owner: BOB } },
    };
    expect((await post({ addresses: [ALICE, BOB] })).json()).toEqual(expected);
    expect((await post({ caip2Id: 'move-mvmt:*', addresses: [ALICE, BOB] })).json()).toEqual(expected);
    expect((await post({ caip2Id: null, addresses: [ALICE, BOB] })).json()).toEqual(expected);
    expect((await post({ caip2Id: 'move-mvmt:testnet', addresses: [ALICE_TESTNET, ALICE] })).json()).toEqual({
      data: { [ALICE_TESTNET]: { name: 'alice.snow', owner: ALICE_TESTNET } },
    });
  });

  it('answers 1000 addresses from one registry query per network', async () => {
    // 600 mainnet owners (every other one upper-cased), 200 testnet owners, 200 unknown.
    const addresses = [
      ...Array.from({ length: MAINNET_OWNERS }, (_, i) =>
        i % 2
          ? hex(0x1000 + i)
              .toUpperCase()
              .replace('0X', '0x')
          : hex(0x1000 + i),
      ),
      ...Array.from({ length: TESTNET_OWNERS }, (_, i) => hex(0x5000 + i)),
      ...Array.from({ length: 200 }, (_, i) => hex(0x9000 + i)),
    ];
    expect(addresses).toHaveLength(1000);
    const query = vi.spyOn(app.services.db, 'queryRows');
    // Background sweepers share the handle; count only the registry's queries.
    const registryCalls = () => query.mock.calls.filter(([sql]) => String(sql).includes('mns_name'));
    try {
      const one = await post({ caip2Id: 'move-mvmt:126', addresses });
      expect(one.statusCode).toBe(200);
      const mainnet = one.json().data as Record<string, { name: string }>;
      expect(Object.keys(mainnet)).toHaveLength(MAINNET_OWNERS);
      expect(mainnet[addresses[7] as string]).toEqual({ name: 'm7.snow', owner: hex(0x1007) });
      expect(registryCalls()).toHaveLength(1);

      query.mockClear();
      const all = await post({ addresses });
      const everywhere = all.json().data as Record<string, { name: string }>;
      expect(Object.keys(everywhere)).toHaveLength(MAINNET_OWNERS + TESTNET_OWNERS);
      expect(everywhere[hex(0x5003)]).toEqual({ name: 't3.snow', owner: hex(0x5003) });
      expect(registryCalls()).toHaveLength(3);
      expect(new Set(registryCalls().map(([, params]) => (params as unknown[])[0]))).toEqual(
        new Set(['126', '177', '250']),
      );
    } finally {
      query.mockRestore();
    }
  });
});
