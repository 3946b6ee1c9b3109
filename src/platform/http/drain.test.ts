import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/support/app.js';
import { startChildServer } from '../../../test/support/child.js';
import { createTestDatabase } from '../../../test/support/database.js';

describe('SIGTERM', () => {
  it('drains in-flight requests before the process exits', async () => {
    const database = await createTestDatabase();
    const seed = await startTestApp({}, database);
    const { apiKey } = await seed.partner(5);
    await seed.stop();
    const server = await startChildServer({ DATABASE_URL: database.url });
    try {
      const inFlight = fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ query: '{ meteredSlow(ms: 1500) }' }),
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const exited = new Promise<number | null>((resolve) => server.process.once('exit', resolve));
      server.process.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        data: { meteredSlow: 'slow' },
        extensions: { credits: { charged: 1, remaining: 4 } },
      });
      expect(await exited).toBe(0);
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});
