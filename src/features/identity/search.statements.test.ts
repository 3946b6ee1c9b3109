import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { createMnsProvider, importNames } from '../resolution/index.js';

/**
 * What one search page costs the database: a page's names are read together, not one by one and
 * network by network. These tests pin the batched cost so it cannot silently come back. Only MNS is enabled here (no RPC URLs), so the name index is not involved.
 */

const owner = (i: number) => `0x${(i + 1).toString(16).padStart(64, '0')}`;
// Twelve names under "st": st00 … st11. st03 lives on testnet only, st05 on both networks (mainnet
// answers), and st07 has expired.
const NAMES = Array.from({ length: 12 }, (_, i) => `st${String(i).padStart(2, '0')}`).flatMap((label, i) => {
  const line = (caip2Id: string, extra: Record<string, unknown> = {}) => ({
    name: label,
    caip2Id,
    owner: owner(i),
    txtRecords: [{ key: 'url', value: `https://${label}.example/${caip2Id}` }],
    ...extra,
  });
  if (i === 3) return [line('move-mvmt:177')];
  if (i === 5) return [line('move-mvmt:126'), line('move-mvmt:177', { owner: owner(99) })];
  if (i === 7) return [line('move-mvmt:126', { expireAt: '2020-01-01T00:00:00Z' })];
  return [line('move-mvmt:126')];
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const summary = await importNames(
    app.services.db,
    NAMES.map((n) => JSON.stringify(n)),
  );
  expect(summary.errors).toEqual([]);
});
afterAll(() => app?.stop());

/** Runs `fn` and returns the registry statements it sent (background sweepers share the handle). */
async function registryStatements(fn: () => Promise<void>): Promise<string[]> {
  const query = vi.spyOn(app.services.db, 'query');
  const queryRows = vi.spyOn(app.services.db, 'queryRows');
  const run = vi.spyOn(app.services.db, 'run');
  try {
    await fn();
    return [...query.mock.calls, ...queryRows.mock.calls, ...run.mock.calls]
      .map(([sql]) => String(sql))
      .filter((sql) => sql.includes('mns_name') || sql.includes('name_index'));
  } finally {
    query.mockRestore();
    queryRows.mockRestore();
    run.mockRestore();
  }
}

describe('identity search database cost', () => {
  it('fills a page in one statement: 3 for the page (exact lookup, listing, fill) instead of 23', async () => {
    const { apiKey } = await app.partner(10);
    let body: { results: { name: string; caip2Id: string; ownerAddress: string; txtRecords: unknown[] }[] } = {
      results: [],
    };
    const statements = await registryStatements(async () => {
      const res = await app.http.inject({
        method: 'GET',
        url: '/partners/cip/identity/search?query=st&perPage=10',
        headers: { 'x-api-key': apiKey },
      });
      expect(res.statusCode).toBe(200);
      body = res.json();
    });
    expect(statements).toHaveLength(3);
    // The batched fill answers what the per-name lookups did: name order, expired names left out, a name
    // on both networks from mainnet, a testnet-only name from testnet, with its records.
    expect(body.results.map((r) => r.name)).toEqual([
      'st00.snow',
      'st01.snow',
      'st02.snow',
      'st03.snow',
      'st04.snow',
      'st05.snow',
      'st06.snow',
      'st08.snow',
      'st09.snow',
      'st10.snow',
    ]);
    expect(body.results[3]).toMatchObject({ caip2Id: 'move-mvmt:177', ownerAddress: owner(3) });
    expect(body.results[5]).toMatchObject({
      caip2Id: 'move-mvmt:126',
      ownerAddress: owner(5),
      txtRecords: [{ key: 'url', value: 'https://st05.example/move-mvmt:126', type: 'url' }],
    });
  });

  it('costs the same on a later page and through GraphQL', async () => {
    const { apiKey } = await app.partner(10);
    let names: string[] = [];
    const rest = await registryStatements(async () => {
      const res = await app.http.inject({
        method: 'GET',
        url: '/partners/cip/identity/search?query=st&perPage=10&page=2',
        headers: { 'x-api-key': apiKey },
      });
      names = res.json().results.map((r: { name: string }) => r.name);
    });
    expect(names).toEqual(['st11.snow']);
    expect(rest).toHaveLength(3);

    const graphql = await registryStatements(async () => {
      const res = await app.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        payload: { query: '{ identitySearch(query: "st0", perPage: 5) { results { name } pagination { total } } }' },
      });
      const { data, errors } = res.json();
      expect(errors).toBeUndefined();
      expect(data.identitySearch.pagination.total).toBe(9);
      expect(data.identitySearch.results.map((r: { name: string }) => r.name)).toEqual([
        'st00.snow',
        'st01.snow',
        'st02.snow',
        'st03.snow',
        'st04.snow',
      ]);
    });
    expect(graphql).toHaveLength(3);
  });

  it("reads the names that searches of one turn look up in one statement, each caller's answer its own", async () => {
    const mns = createMnsProvider(app.services.db);
    const statements = await registryStatements(async () => {
      // What three searches arriving together ask: two exact names, one page to fill.
      const [one, five, page] = await Promise.all([
        mns.records('st01.snow'),
        mns.records('st05'),
        mns.recordsMany?.(['st02.snow', 'st03.snow', 'st07.snow', 'st05.snow', 'nobody.snow']),
      ]);
      expect(one).toMatchObject({ name: 'st01.snow', caip2Id: 'move-mvmt:126', ownerAddress: owner(1) });
      expect(five).toMatchObject({ name: 'st05.snow', caip2Id: 'move-mvmt:126', ownerAddress: owner(5) });
      // Testnet-only from testnet, expired and unknown names null, a name on both networks from mainnet.
      expect(page?.map((r) => r && [r.name, r.caip2Id])).toEqual([
        ['st02.snow', 'move-mvmt:126'],
        ['st03.snow', 'move-mvmt:177'],
        null,
        ['st05.snow', 'move-mvmt:126'],
        null,
      ]);
    });
    expect(statements).toHaveLength(1);
  });
});
