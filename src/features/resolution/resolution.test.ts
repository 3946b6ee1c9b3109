import { describe, expect, it, vi } from 'vitest';
import { ALICE, BOB, PAY_ALICE } from '../../../test/fixtures/mns/index.js';
import { useNamesApp } from './names-app.test-helper.js';

describe('resolution subgraph over /graphql', () => {
  const app = useNamesApp();

  const graphql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    app.http.inject({ method: 'POST', url: '/graphql', payload: { query, variables }, headers });

  it('batches every lookup of an operation, across aliased root fields, into one query per network', async () => {
    const query = vi.spyOn(app.services.db, 'query');
    const queryRows = vi.spyOn(app.services.db, 'queryRows');
    try {
      const res = await graphql(`{
        a: nameOwner(name: "alice", caip2Id: "move-mvmt:*") { owner subNames { name address } }
        b: nameOwner(name: "bob", caip2Id: "move-mvmt:*") { owner subNames { name } }
        c: nameOwners(names: ["noresolver", "nobody"], caip2Id: "move-mvmt:*") { owner }
        d: nameMetadata(name: "alice") { caip2Id metadata { key type } }
      }`);
      expect(res.statusCode).toBe(200);
      const { data, errors } = res.json();
      expect(errors).toBeUndefined();
      expect(data.a).toEqual({ owner: ALICE, subNames: [{ name: 'pay.alice.snow', address: PAY_ALICE }] });
      expect(data.b).toEqual({ owner: BOB, subNames: [] });
      expect(data.c).toEqual([{ owner: '0x1234' }, null]);
      expect(data.d.metadata[0]).toEqual({ key: 'com.twitter', type: 'social' });
      // Names on the three networks (3), then the sub-names of the names found on each network (2).
      // Counted on the registry only: background sweepers share the database handle.
      const calls = [...query.mock.calls, ...queryRows.mock.calls];
      expect(calls.filter(([sql]) => String(sql).includes('mns_name'))).toHaveLength(5);
    } finally {
      query.mockRestore();
      queryRows.mockRestore();
    }
  });

  it('answers the follow-up lookups of a whole batch from what the batch found', async () => {
    const query = vi.spyOn(app.services.db, 'query');
    const queryRows = vi.spyOn(app.services.db, 'queryRows');
    try {
      const res = await graphql(`{
        owners: nameOwners(names: ["alice", "bob", "nobody"], caip2Id: "move-mvmt:*") { owner subNames { name } }
        one: primaryName(address: "0x0b0b", caip2Id: "move-mvmt:*") { name }
        many: primaryNames(addresses: ["0x0b0b", "0xdead"]) { name }
      }`);
      const { data, errors } = res.json();
      expect(errors).toBeUndefined();
      expect(data.owners).toEqual([
        { owner: ALICE, subNames: [{ name: 'pay.alice.snow' }] },
        { owner: BOB, subNames: [] },
        null,
      ]);
      expect(data.one).toEqual({ name: 'bob.snow' });
      expect(data.many).toEqual([{ name: 'bob.snow' }]);
      // Names on the three networks (3), primary names on the three networks, the single lookup and the
      // batch together (3), then the sub-names of the names found on each network (2): the sub-names
      // ask which source answered each name, and the batch already knows.
      const calls = [...query.mock.calls, ...queryRows.mock.calls];
      expect(calls.filter(([sql]) => String(sql).includes('mns_name'))).toHaveLength(8);
    } finally {
      query.mockRestore();
      queryRows.mockRestore();
    }
  });

  it('is free: no key needed, and a partner key is not charged', async () => {
    const { apiKey } = await app.partner(5);
    const res = await graphql(
      '{ primaryName(address: "0x0b0b", caip2Id: "move-mvmt:testnet") { name } }',
      {},
      { 'x-api-key': apiKey },
    );
    expect(res.json().data).toEqual({ primaryName: { name: 'bob.snow' } });
    const stats = await graphql('{ stats { creditBalance creditUsage } }', {}, { 'x-api-key': apiKey });
    expect(stats.json().data.stats).toEqual({ creditBalance: 5, creditUsage: 0 });
  });

  it('reports bad input and unknown names with stable codes', async () => {
    const bad = await graphql('{ primaryNames(addresses: ["nope"]) { name } }');
    expect(bad.json().errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // A batch's bad item is named by its place in the list.
    const third = await graphql('{ primaryNames(addresses: ["0x1", "0x2", "nope"]) { name } }');
    expect(third.json().errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'addresses[2]' });
    const second = await graphql('{ nameOwners(names: ["alice", "a b"], caip2Id: "move-mvmt:126") { owner } }');
    expect(second.json().errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'names[1]' });
    const single = await graphql('{ primaryName(address: "nope", caip2Id: "move-mvmt:126") { name } }');
    expect(single.json().errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'address' });
    const missing = await graphql('{ nameOwner(name: "nobody", caip2Id: "move-mvmt:126") { owner } }');
    expect(missing.json()).toMatchObject({
      data: { nameOwner: null },
      errors: [{ extensions: { code: 'NOT_FOUND' } }],
    });
  });
});
