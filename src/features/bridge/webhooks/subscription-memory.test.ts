/**
 * Closed subscriptions keep nothing: 1000 subscriptions to a transfer that does not move, opened and
 * closed three times on a server in its own process, leave no listener, no subscription row, no hold,
 * and the server's resident memory where it started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type ChildServer, startChildServer } from '../../../../test/support/child.js';
import { type Standin, startStandin } from '../../../../test/support/http-standin.js';
import { events, lifiFixture, openSocket, type RawSocket, SUBSCRIPTION, TX, waitFor } from './push.test-helper.js';

interface PushStats {
  listeners: number;
  rss: number;
  gc: boolean;
}

describe('closed subscriptions keep no memory', () => {
  let lifi: Standin;
  let app: TestApp;
  let server: ChildServer;

  beforeAll(async () => {
    lifi = await startStandin();
    lifi.reply('/v1/status', { json: lifiFixture('status-pending.json') });
    const env = {
      LIFI_API_URL: `${lifi.url}/v1`,
      // A look that times out while 1000 subscriptions start is soon made again.
      PROVIDER_TIMEOUT_MS: '5000',
      BRIDGE_FOLLOW_INTERVAL_MS: '500',
      BRIDGE_MAX_SUBSCRIPTIONS: '1000',
      RATE_LIMIT_PARTNER_MAX: '1000000',
      RATE_LIMIT_PUBLIC_MAX: '1000000',
    };
    app = await startTestApp(env);
    server = await startChildServer(
      { ...env, DATABASE_URL: app.database.url, NODE_OPTIONS: '--expose-gc' },
      './test/support/child-push.ts',
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await app?.stop();
    await lifi?.close();
  });

  const stats = async (): Promise<PushStats> => (await fetch(`${server.url}/test/push-stats`)).json() as never;

  /** Opens `n` subscriptions over 4 sockets, waits for each one's first event, then ends them all. */
  async function round(key: string, n: number): Promise<void> {
    const url = `${server.url.replace('http', 'ws')}/graphql`;
    const sockets: RawSocket[] = await Promise.all([0, 1, 2, 3].map(() => openSocket(url, key)));
    const ids = Array.from({ length: n }, (_, i) => `s${i}`);
    const socketOf = (i: number) => sockets[i % sockets.length] as RawSocket;
    // In waves of 100: a thousand starts at the same instant would queue for the database's connections
    // (those past its acquire timeout are refused, free, as UPSTREAM_UNAVAILABLE).
    for (let wave = 0; wave < n; wave += 100) {
      const some = ids.slice(wave, wave + 100);
      some.forEach((id, i) => {
        socketOf(wave + i).subscribe(id, SUBSCRIPTION, { tx: TX });
      });
      await waitFor('a wave of first events', () => some.every((id, i) => events(socketOf(wave + i), id).length === 1));
    }
    await waitFor(`${n} first events`, () => ids.every((id, i) => events(socketOf(i), id).length === 1), 30_000).catch(
      (err) => {
        const missing = ids.filter((id, i) => events(socketOf(i), id).length !== 1);
        const sample = missing.slice(0, 3).map((id) => sockets.flatMap((s) => s.of(id)));
        throw new Error(`${err.message}: ${missing.length} without one, e.g. ${JSON.stringify(sample)}`);
      },
    );
    // Half end with `complete`, on sockets that stay open a moment; the other half with their socket.
    ids.forEach((id, i) => {
      if (i % sockets.length < 2) socketOf(i).complete(id);
    });
    await Promise.all(sockets.slice(2).map((s) => s.close()));
    await waitFor('no listener left', async () => (await stats()).listeners === 0, 10_000);
    await Promise.all(sockets.map((s) => s.close()));
  }

  it('1000 subscriptions opened and closed three times leave no listener and no memory behind', async () => {
    const { id, apiKey } = await app.partner(10_000);
    // A first round of the same size loads the WebSocket code and sets the allocator's high-water mark
    // (memory taken for 1000 open subscriptions is kept for reuse): growth is measured from after it.
    await round(apiKey, 1000);
    const start = await stats();
    expect(start.gc).toBe(true);
    const rounds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const began = Date.now();
      await round(apiKey, 1000);
      const after = await stats();
      expect(after.listeners).toBe(0);
      rounds.push(after.rss);
      console.log(
        `round ${i + 1}: ${Date.now() - began} ms, rss ${(after.rss / 2 ** 20).toFixed(1)} MiB (start ${(start.rss / 2 ** 20).toFixed(1)} MiB)`,
      );
    }
    await waitFor('no subscription row left', async () => {
      const rows = await app.services.db.query('select 1 from bridge_subscription where partner_id = ?', [id]);
      return rows.length === 0;
    });
    await waitFor('no hold left', async () => {
      const [row] = await app.services.db.query<{ r: number | string }>(
        'select credit_reserved as r from partner where id = ?',
        [id],
      );
      return Number(row?.r) === 0;
    });
    // Each subscription got its first event, so each was charged once: 4000 in all.
    const [row] = await app.services.db.query<Record<string, number | string>>(
      'select credit_balance, credit_usage from partner where id = ?',
      [id],
    );
    expect([Number(row?.credit_balance), Number(row?.credit_usage)]).toEqual([10_000 - 4000, 4000]);
    expect(Math.max(...rounds)).toBeLessThan(start.rss * 1.1);
  }, 180_000);
});
