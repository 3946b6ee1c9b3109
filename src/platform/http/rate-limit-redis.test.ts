import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { loadConfig } from '../config.js';

/**
 * Two app instances ("processes") sharing a PRIVATE redis-server that the test kills, stalls and restarts;
 * the shared server on 6379 is never touched.
 */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`private redis-server did not start on port ${port}`);
}

const stopRedis = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });

const until = async (check: () => Promise<boolean>, timeoutMs = 8000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('rate limits with Redis failing', () => {
  let port: number;
  let redis: ChildProcess;
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const logs: string[] = [];

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    database = await createTestDatabase();
    const env = {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      RATE_LIMIT_PARTNER_MAX: '3',
      RATE_LIMIT_PUBLIC_MAX: '100000',
      RATE_LIMIT_WINDOW_MS: '60000',
      // The shipped default, which startTestApp raises for exact counts elsewhere: this file tests it.
      RATE_LIMIT_REDIS_TIMEOUT_MS: String(loadConfig({}).rateLimit.redisTimeoutMs),
      LOG_LEVEL: 'info',
    };
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean)));
    a = await startTestApp(env, database, { logStream });
    b = await startTestApp({ ...env, LOG_LEVEL: 'silent' }, database);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (redis) await stopRedis(redis);
  });

  const stats = (app: TestApp, key: string) =>
    app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': key } });
  const timed = async (app: TestApp, key: string) => {
    const started = performance.now();
    const { statusCode } = await stats(app, key);
    return { statusCode, ms: performance.now() - started };
  };
  const readyz = async (app: TestApp) => (await app.http.inject({ method: 'GET', url: '/readyz' })).json();
  const redisLogs = () => logs.map((line) => JSON.parse(line).msg as string).filter((msg) => /^Redis/.test(msg));

  /** Shared counting: the partner's budget of 3 spans both instances. */
  const expectShared = async () => {
    const { apiKey } = await a.partner(1);
    expect((await stats(a, apiKey)).statusCode).toBe(200);
    expect((await stats(b, apiKey)).statusCode).toBe(200);
    expect((await stats(a, apiKey)).statusCode).toBe(200);
    expect((await stats(b, apiKey)).statusCode).toBe(429);
  };

  it('shares counters between instances while Redis is up', async () => {
    expect(await readyz(a)).toEqual({ status: 'ready', naming: expect.any(Object), bridge: expect.any(Object) });
    await expectShared();
  });

  it('keeps answering fast and limiting in memory when Redis is killed, and says so on /readyz', async () => {
    await stopRedis(redis);
    const { apiKey } = await a.partner(1);
    const results = [];
    for (let i = 0; i < 12; i++) results.push(await timed(i % 2 ? b : a, apiKey));
    for (const { ms } of results) expect(ms).toBeLessThan(500);
    // Each instance counts on its own now: 3 each, then 429.
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    for (const app of [a, b]) {
      const answer = await app.http.inject({ method: 'GET', url: '/readyz' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({
        status: 'degraded',
        redis: 'unreachable',
        naming: expect.any(Object),
        bridge: expect.any(Object),
      });
    }
    // The transition is logged once, however many requests fell back.
    expect(redisLogs().filter((msg) => msg.includes('unreachable'))).toHaveLength(1);
  });

  it('resumes shared counting when Redis comes back', async () => {
    redis = await startRedis(port);
    await until(async () => (await readyz(a)).status === 'ready' && (await readyz(b)).status === 'ready');
    await expectShared();
    expect(redisLogs()).toEqual([expect.stringContaining('unreachable'), expect.stringContaining('reachable again')]);
  });

  it('waits no more than briefly on a stalled Redis', async () => {
    redis.kill('SIGSTOP');
    try {
      const { apiKey } = await a.partner(1);
      const results = [];
      for (let i = 0; i < 8; i++) results.push(await timed(a, apiKey));
      for (const { ms } of results) expect(ms).toBeLessThan(500);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
      const started = performance.now();
      expect(await readyz(a)).toEqual({
        status: 'degraded',
        redis: 'unreachable',
        naming: expect.any(Object),
        bridge: expect.any(Object),
      });
      expect(performance.now() - started).toBeLessThan(500);
    } finally {
      redis.kill('SIGCONT');
    }
    await until(async () => (await readyz(a)).status === 'ready');
  });
});
