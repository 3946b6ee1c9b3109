import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, importNamesFile, NAMES_FILE } from '../../../test/fixtures/mns/index.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../../../test/support/database.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from './orm.js';

describe('DATABASE_READ_URL', () => {
  it('must name a PostgreSQL replica of a PostgreSQL primary', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: 'file:./x.db', DATABASE_READ_URL: 'postgres://u@127.0.0.1/db' }),
    ).toThrowError(ConfigError);
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db', DATABASE_READ_URL: 'file:./x.db' }),
    ).toThrowError(/DATABASE_READ_URL/);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db', DATABASE_READ_URL: 'postgres://u@127.0.0.1/ro' })
        .databaseReadUrl,
    ).toBe('postgres://u@127.0.0.1/ro');
  });

  describe.runIf(usingPostgres())('with a second database standing in for the replica', () => {
    let primary: TestDatabase;
    let replica: TestDatabase;
    let app: TestApp;
    const count = async (url: string, sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      primary = await createTestDatabase();
      replica = await createTestDatabase();
      // The replica has the primary's schema and, here, names the primary lacks; then it refuses writes,
      // as a hot standby does, so any write sent its way fails the test.
      await (await openDatabase(replica.url)).close();
      expect((await importNamesFile(replica.url, NAMES_FILE)).code).toBe(0);
      const name = new URL(replica.url).pathname.slice(1);
      await count(primary.url, `alter database ${name} set default_transaction_read_only = on`);
      app = await startTestApp({ DATABASE_READ_URL: replica.url }, primary, { subgraphs: withMetered() });
    });
    afterAll(async () => {
      await app?.stop();
      await primary?.drop();
      await replica?.drop();
    });

    it('answers public lookups from the replica and keeps writes and the ledger on the primary', async () => {
      expect(await count(primary.url, 'select count(*) as n from mns_name')).toBe(0);
      const lookup = await app.http.inject({
        method: 'GET',
        url: '/api/public/identity/address',
        query: { name: 'alice.snow', caip2Id: 'move-mvmt:126' },
      });
      expect(lookup.statusCode).toBe(200);
      expect(lookup.json()).toMatchObject({ owner: ALICE });
      const name = await app.http.inject({
        method: 'GET',
        url: '/api/public/identity/name',
        query: { address: ALICE, caip2Id: 'move-mvmt:126' },
      });
      expect(name.json()).toEqual({ name: 'alice.snow', owner: ALICE });

      const { id, apiKey } = await app.partner(10);
      const paid = await app.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-api-key': apiKey },
        payload: { query: '{ meteredTwo nameOwner(name: "alice.snow", caip2Id: "move-mvmt:126") { owner } }' },
      });
      expect(paid.json()).toMatchObject({ data: { meteredTwo: 2, nameOwner: { owner: ALICE } } });
      await app.services.ledger.whenSettled(id);
      expect(await app.services.ledger.available(id)).toBe(8);
      expect(await count(primary.url, "select count(*) as n from ledger_entry where kind = 'charge'")).toBe(1);
      expect(await count(replica.url, 'select count(*) as n from partner')).toBe(0);
      expect(await count(replica.url, 'select count(*) as n from ledger_entry')).toBe(0);
    });
  });
});
