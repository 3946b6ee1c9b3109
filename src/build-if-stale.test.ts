import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve('src/build-if-stale.mjs');

/** A checkout with one source and a `tsc` on PATH that only counts its runs. */
function checkout() {
  const dir = mkdtempSync(join(tmpdir(), 'cipgate-build-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(join(dir, 'tsconfig.build.json'), '{}\n');
  writeFileSync(join(dir, 'bin', 'tsc'), `#!/bin/sh\necho run >> "${join(dir, 'tsc-runs')}"\n`);
  chmodSync(join(dir, 'bin', 'tsc'), 0o755);
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [SCRIPT, ...args], {
      cwd: dir,
      env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
      encoding: 'utf8',
    });
  const runs = () =>
    existsSync(join(dir, 'tsc-runs')) ? readFileSync(join(dir, 'tsc-runs'), 'utf8').split('\n').length - 1 : 0;
  return { dir, run, runs };
}

describe('build-if-stale (prestart and prepare)', () => {
  it('builds a checkout never built, then not again until a source changes', () => {
    const { dir, run, runs } = checkout();
    expect(run().status).toBe(0);
    expect(runs()).toBe(1);
    expect(existsSync(join(dir, 'dist', '.build-stamp'))).toBe(true);
    expect(run().status).toBe(0);
    expect(runs()).toBe(1);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'src', 'main.ts'), later, later);
    expect(run().status).toBe(0);
    expect(runs()).toBe(2);
    expect(run('--force').status).toBe(0);
    expect(runs()).toBe(3);
  });

  it('does nothing before the sources are there (a dependencies-only Docker layer)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cipgate-build-'));
    const res = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('keeps the last stamp when the build fails, so the next start tries again', () => {
    const { dir, run, runs } = checkout();
    writeFileSync(join(dir, 'bin', 'tsc'), `#!/bin/sh\necho run >> "${join(dir, 'tsc-runs')}"\nexit 2\n`);
    expect(run().status).toBe(2);
    expect(run().status).toBe(2);
    expect(runs()).toBe(2);
    expect(existsSync(join(dir, 'dist', '.build-stamp'))).toBe(false);
  });
});
