// Builds dist/ only when a source is newer than the last successful build, so `npm start` serves in
// about two seconds on a built checkout and `npm install` (its `prepare` hook) does the one build.
// `--force` builds anyway (`npm run build`). Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'schema', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

// Before the sources are there (a Docker layer that installs dependencies only) there is nothing to build.
if (!existsSync('src') || !existsSync('tsconfig.build.json')) process.exit(0);

/** Newest modification time under `path`, in ms. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs; // a deleted or renamed file changes its directory's time
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const force = process.argv.includes('--force');
const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (!force && INPUTS.every((input) => newest(input) < built)) process.exit(0);

if (!force) console.error('cipgate: sources changed since the last build; building (tsc)…');
const tsc = spawnSync('tsc', ['-p', 'tsconfig.build.json'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
mkdirSync('dist', { recursive: true });
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
