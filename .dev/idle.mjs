// median idle RSS of `node <flags> dist/src/main.js` 1 s after /readyz, N runs, fresh SQLite file each
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os'; import { join } from 'node:path';
const N = +(process.argv[2] ?? 5); const out = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (let i = 0; i < N; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'idle-'));
  const port = 4900 + i;
  const c = spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=100', 'dist/src/main.js'], { env: { ...process.env, PORT: String(port), DATABASE_URL: `file:${dir}/db.sqlite`, DATA_DIR: dir, LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  for (;;) { try { const r = await fetch(`http://127.0.0.1:${port}/readyz`); await r.arrayBuffer(); if (r.ok) break; } catch {} await sleep(100); }
  await sleep(1000);
  out.push(+readFileSync(`/proc/${c.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1] / 1024);
  c.kill('SIGKILL');
}
out.sort((a, b) => a - b); console.log('idle RSS MiB', out.map((x) => x.toFixed(0)).join(' '), 'median', out[N >> 1].toFixed(1));
