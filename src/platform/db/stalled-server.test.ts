import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../../../test/support/database.js';
import { clientStatementTimeoutMs, type Database, openDatabase } from './orm.js';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * A loopback TCP relay to PostgreSQL that can stop passing bytes either way, as a frozen server or a
 * network that drops everything looks to the client: the connection stays open and nothing comes back.
 */
async function relayTo(target: URL): Promise<{ port: number; stalled: { on: boolean }; close(): Promise<void> }> {
  const stalled = { on: false };
  const sockets = new Set<Socket>();
  const server: Server = createServer((downstream) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [downstream, upstream],
      [upstream, downstream],
    ] as const) {
      sockets.add(from);
      from.on('data', (bytes) => {
        if (!stalled.on) to.write(bytes);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('relay has no port');
  return {
    port: address.port,
    stalled,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const STATEMENT_TIMEOUT_MS = 200;

describe.runIf(usingPostgres())('a PostgreSQL server that stops answering', () => {
  let testDb: TestDatabase;
  let relay: Awaited<ReturnType<typeof relayTo>>;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const target = new URL(testDb.url);
    relay = await relayTo(target);
    const through = new URL(testDb.url);
    through.hostname = '127.0.0.1';
    through.port = String(relay.port);
    // One connection: a statement after a stall can only succeed on a connection opened after it.
    db = await openDatabase(through.toString(), {
      poolMax: 1,
      acquireTimeoutMs: 800,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    });
  });

  afterAll(async () => {
    await db?.close();
    await relay?.close();
    await testDb?.drop();
  });

  /** Sends `statement` while the relay passes nothing; the failure and how long it took. */
  const stalledFor = async (statement: () => Promise<unknown>) => {
    relay.stalled.on = true;
    const started = performance.now();
    const failure = await statement().then(
      () => undefined,
      (err: unknown) => err,
    );
    const waited = performance.now() - started;
    relay.stalled.on = false;
    return { failure, waited };
  };

  it('fails the statement as unavailable within the bound, and the next statement gets a new connection', async () => {
    expect(await db.query('select 1 as x')).toEqual([{ x: 1 }]);
    const { failure, waited } = await stalledFor(() => db.query('select 2 as x'));
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(clientStatementTimeoutMs(STATEMENT_TIMEOUT_MS) - 1);
    // The bound plus timer lateness on a loaded machine.
    expect(waited).toBeLessThan(clientStatementTimeoutMs(STATEMENT_TIMEOUT_MS) + 100);
    expect(await db.query('select 3 as x')).toEqual([{ x: 3 }]);
  });

  it('fails a named array read the same way, and the next one gets a new connection', async () => {
    expect(await db.queryRows('select ?::int as x', [1])).toEqual([[1]]);
    const { failure, waited } = await stalledFor(() => db.queryRows('select ?::int as x', [2]));
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(waited).toBeLessThan(clientStatementTimeoutMs(STATEMENT_TIMEOUT_MS) + 100);
    expect(await db.queryRows('select ?::int as x', [3])).toEqual([[3]]);
  });

  it('leaves a statement the server cancels to fail as cancelled, not as a stall', async () => {
    const failure = await db.query('select pg_sleep(2)').then(
      () => undefined,
      (err: unknown) => err as { code?: string },
    );
    expect(failure?.code).toBe('57014');
    expect(await db.query('select 4 as x')).toEqual([{ x: 4 }]);
  });

  it('leaves alone a connection waiting on its caller, not on the server', async () => {
    const answer = await db.transaction(async (tx) => {
      await tx.query('select 5 as x');
      // Longer than the client's timeout, but no statement is waiting: the caller is taking its time.
      await new Promise((resolve) => setTimeout(resolve, clientStatementTimeoutMs(STATEMENT_TIMEOUT_MS) + 150));
      return tx.query('select 6 as x');
    });
    expect(answer).toEqual([{ x: 6 }]);
  });
});
