import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../support/closed-port.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cipgate-idle-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Packages that only some settings need. Each costs resident memory in every process that loads it (viem
 * alone about 15 MiB at start-up), so a process whose setting is absent must not load it.
 */
const ON_DEMAND = [
  'viem',
  '@solana/web3.js',
  '@bonfida/spl-name-service',
  '@aptos-labs/ts-sdk',
  'ioredis',
  '@mikro-orm/postgresql',
  'pg',
];

/** The npm packages that building the whole app loads, in a fresh process on exactly `env`. */
async function startupPackages(name: string, env: Record<string, string>): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', './test/support/ts-loader.mjs', './test/support/child-idle-imports.ts'],
    {
      cwd: root,
      // Embedded SQLite and nothing else configured, whatever database this test run uses.
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: `file:${join(dir, `${name}.db`)}`,
        SANDBOX_SEED: 'false',
        LOG_LEVEL: 'silent',
        // Apollo Gateway's own usage telemetry, irrelevant here: no calls out of the machine from this test.
        APOLLO_TELEMETRY_DISABLED: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`child exited with ${code}:\n${err}`);
  return JSON.parse(out.trim().split('\n').at(-1) as string) as string[];
}

describe('packages loaded at start-up', () => {
  it('with the embedded defaults: no upstream SDK, Redis client or PostgreSQL driver', async () => {
    const loaded = await startupPackages('defaults', {});
    // The hook saw the app's own packages load, so an absence below is a real absence.
    expect(loaded).toEqual(expect.arrayContaining(['fastify', '@mikro-orm/core']));
    expect(ON_DEMAND.filter((p) => loaded.includes(p))).toEqual([]);
  }, 120_000);

  it('loads each of them once its setting is present', async () => {
    const closed = await closedPortUrl();
    const loaded = await startupPackages('configured', {
      ENS_RPC_URL: closed,
      SOLANA_RPC_URL: closed,
      APTOS_RPC_URL: closed,
      REDIS_URL: closed.replace('http:', 'redis:'),
    });
    expect(loaded).toEqual(expect.arrayContaining(['viem', '@solana/web3.js', '@aptos-labs/ts-sdk', 'ioredis']));
  }, 120_000);
});
