import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_EMAIL } from '../../src/features/accounts/sandbox-seed.js';
import { openDatabase } from '../../src/platform/db/orm.js';
import { startChildServer } from '../support/child.js';
import { createTestDatabase, usingPostgres } from '../support/database.js';
import { listeningPort, startMain } from './main-process.js';

const listen = (server: Server, port = 0) =>
  new Promise<number>((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The database and Redis this test run is on (SQLite alone, or PostgreSQL + Redis). */
const onThisRun = (url: string): Record<string, string> => ({
  DATABASE_URL: url,
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
});

describe('a start against a dead database', () => {
  it('says which setting to check, masks the password, prints no stack trace, exits non-zero', async () => {
    const main = startMain({ DATABASE_URL: 'postgres://cipgate:s3cret-pw@127.0.0.1:1/cipgate' });
    const code = await main.exited;
    expect(code).not.toBe(0);
    expect(main.stderr().trim()).toMatch(
      /^Cannot reach the database at postgres:\/\/cipgate:\*\*\*@127\.0\.0\.1:1\/cipgate \(DATABASE_URL\): connect ECONNREFUSED/,
    );
    expect(main.stderr() + main.stdout()).not.toContain('s3cret-pw');
    expect(main.stderr()).not.toMatch(/^\s+at /m);
  });

  it('gives up on a server that accepts connections but never answers, within the acquire timeout', async () => {
    const held = new Set<Socket>();
    const silent = createServer((socket) => held.add(socket));
    const port = await listen(silent);
    try {
      const started = performance.now();
      const main = startMain({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x` });
      expect(await main.exited).not.toBe(0);
      // Node start-up and the TypeScript loader take most of this; the wait itself is 800 ms.
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(main.stderr().trim()).toMatch(
        new RegExp(`^Cannot reach the database at postgres://postgres@127\\.0\\.0\\.1:${port}/x \\(DATABASE_URL\\): `),
      );
      expect(main.stderr()).not.toMatch(/^\s+at /m);
    } finally {
      for (const s of held) s.destroy();
      await closeServer(silent);
    }
  });
});

describe('SIGTERM', () => {
  it(`exits 0 within 5 s when idle (${usingPostgres() ? 'PostgreSQL + Redis' : 'SQLite'})`, async () => {
    const database = await createTestDatabase();
    try {
      const main = startMain({ ...onThisRun(database.url), SANDBOX_SEED: 'false' });
      const port = await listeningPort(main);
      // Open what a serving process holds: pooled connections, Redis counters, keep-alive sockets.
      for (const path of ['/readyz', '/api/public/identity/names?addresses=0x1&caip2Id=move-mvmt:126', '/healthz']) {
        await fetch(`http://127.0.0.1:${port}${path}`);
      }
      const started = performance.now();
      main.process.kill('SIGTERM');
      const code = await main.exited;
      const ms = performance.now() - started;
      console.info(`SIGTERM to exit: ${Math.round(ms)} ms`);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(5000);
    } finally {
      await database.drop();
    }
  });
});

// The sandbox partner is an embedded-install feature (SANDBOX_SEED defaults on only there), and its key
// file lives beside the SQLite file: these run on SQLite whichever database the suite is on.
describe('the sandbox key', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cipgate-ops-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is not created when the server cannot listen (port taken): a failed start loses nothing', async () => {
    const dir = freshDir();
    const taken = createServer();
    const port = await listen(taken);
    try {
      const main = startMain({
        DATABASE_URL: `file:${join(dir, 'cipgate.db')}`,
        SANDBOX_SEED: 'true',
        PORT: String(port),
      });
      expect(await main.exited).not.toBe(0);
      expect(main.stderr()).toMatch(/Cannot listen on 127\.0\.0\.1:\d+ \(HOST, PORT\): .*EADDRINUSE/);
      // One line: no stack trace from the WebSocket server sharing the HTTP server.
      expect(main.stderr().trim().split('\n')).toHaveLength(1);
    } finally {
      await closeServer(taken);
    }
    expect(existsSync(join(dir, 'sandbox-key.txt'))).toBe(false);
    const db = await openDatabase(`file:${join(dir, 'cipgate.db')}`);
    try {
      expect(await db.query('select id from partner where email = ?', [SANDBOX_EMAIL])).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('is written to a 0600 file once the server listens, never to the log, and works', async () => {
    const dir = freshDir();
    const main = startMain({ DATABASE_URL: `file:${join(dir, 'cipgate.db')}`, SANDBOX_SEED: 'true' });
    try {
      const port = await listeningPort(main);
      const line = await main.waitForLog((l) => typeof l.keyFile === 'string');
      expect(line.keyFile).toBe(join(dir, 'sandbox-key.txt'));
      expect(statSync(join(dir, 'sandbox-key.txt')).mode & 0o777).toBe(0o600);
      const key = readFileSync(join(dir, 'sandbox-key.txt'), 'utf8').trim();
      expect(key.length).toBeGreaterThan(20);
      const res = await fetch(`http://127.0.0.1:${port}/partners/stats`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ email: SANDBOX_EMAIL });
      // stdout is not a terminal here, so the key is only in the file: not in the log, not on stderr.
      expect(main.stdout()).not.toContain(key);
      expect(main.stderr()).not.toContain(key);
    } finally {
      main.process.kill('SIGTERM');
      expect(await main.exited).toBe(0);
    }
  });
});

describe(`processes starting together on a fresh ${usingPostgres() ? 'PostgreSQL' : 'SQLite'} database`, () => {
  it('all come up, each migration applied once', async () => {
    const database = await createTestDatabase();
    const servers = await Promise.allSettled(
      Array.from({ length: 6 }, () => startChildServer({ DATABASE_URL: database.url })),
    );
    try {
      const failed = servers.filter((s) => s.status === 'rejected').map((s) => String(s.reason));
      expect(failed).toEqual([]);
      for (const s of servers) {
        if (s.status === 'fulfilled') expect((await fetch(`${s.value.url}/readyz`)).status).toBe(200);
      }
      const db = await openDatabase(database.url);
      try {
        const rows = await db.query<{ name: string; n: number }>(
          'select name, count(*) as n from cipgate_migrations group by name',
        );
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) expect(Number(row.n), row.name).toBe(1);
      } finally {
        await db.close();
      }
    } finally {
      await Promise.all(servers.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
      await database.drop();
    }
  }, 120_000);
});
