import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type ChildServer, startChildServer } from '../support/child.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

describe('a subgraph served by its own process', () => {
  let database: TestDatabase;
  let subgraph: ChildServer;
  let app: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    // Migrate first, so the two processes do not race to create the schema.
    const seed = await startTestApp({}, database);
    await seed.stop();
    subgraph = await startChildServer(
      { DATABASE_URL: database.url, SUBGRAPH_NAME: 'accounts' },
      './test/support/child-subgraph.ts',
    );
    app = await startTestApp({ SUBGRAPH_URLS: `accounts=${subgraph.url}/graphql` }, database);
  });
  afterAll(async () => {
    await app?.stop();
    await subgraph?.stop();
    await database.drop();
  });

  it('answers through the gateway with the caller forwarded', async () => {
    const { apiKey, email } = await app.partner(7, 'Remote');
    const res = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email, name: 'Remote', creditBalance: 7, creditUsage: 0 });
  });

  it('authenticates on its own when called directly', async () => {
    const res = await fetch(`${subgraph.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ stats { email } }' }),
    });
    const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('UNAUTHENTICATED');
  });
});
