import { readFileSync } from 'node:fs';
const lib = '/work/main/dist/bench/lib';
const { createBenchDatabase } = await import(`${lib}/dataset.js`);
const { scenarios } = await import(`${lib}/scenarios.js`);
const { load } = await import(`${lib}/load.js`);
const { startChild, freePort } = await import(`${lib}/processes.js`);
const [ids, kind = 'sqlite'] = process.argv.slice(2);
const bench = await createBenchDatabase(kind, 'postgres://postgres@127.0.0.1:5432/test', 100_000);
const port = await freePort();
const server = await startChild({ name: 'x', script: '/work/main/dist/src/main.js', port, readyPath: '/readyz', nodeArgs: ['--max-semi-space-size=8', '--heap-growing-percent=100', '--heapsnapshot-signal=SIGUSR2', '--diagnostic-dir=/tmp/snaps', ...(process.env.HEAPPROF ? ['--heap-prof', '--heap-prof-interval=65536'] : [])],
  env: { DATABASE_URL: bench.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PARTNER_MAX: '10000000', RATE_LIMIT_PUBLIC_MAX: '10000000', SANDBOX_SEED: 'false', REDIS_URL: '', SUBGRAPH_URLS: '', ENS_RPC_URL: '', BASE_RPC_URL: '', SOLANA_RPC_URL: '', NODE_ENV: 'production' } });
const summary = (label) => {
  const txt = readFileSync(`/proc/${server.pid}/smaps`, 'utf8').split('\n');
  const groups = {}; let cur = null;
  for (const l of txt) {
    const m = l.match(/^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/);
    if (m) { const size = (parseInt(m[2], 16) - parseInt(m[1], 16)) / 1024; cur = { name: m[4] || (size >= 65536 ? 'anon>=64M' : size >= 1024 ? 'anon1-64M' : 'anon<1M'), size }; continue; }
    const r = l.match(/^Rss:\s+(\d+)/); if (r && cur) { const g = (groups[cur.name] ??= { rss: 0, n: 0 }); g.rss += +r[1]; g.n++; }
  }
  console.log(label, Object.entries(groups).filter(([, g]) => g.rss > 1024).sort((a, b) => b[1].rss - a[1].rss).map(([k, g]) => `${k.replace(/.*\//, '')}=${(g.rss / 1024).toFixed(0)}(${g.n})`).join(' '));
};
try {
  summary('idle');
  for (const s of scenarios(bench.size, bench.apiKey, 8)) {
    if (!ids.split(',').includes(s.id)) continue;
    if (process.env.ALLOC) { await load({ url: server.url, requests: s.requests, connections: s.connections, durationS: 1 }); process.kill(server.pid, 'SIGUSR1'); }
    await load({ url: server.url, requests: s.requests, connections: s.connections, durationS: 5 });
    if (process.env.ALLOC) { process.kill(server.pid, 'SIGUSR2'); await new Promise((r) => setTimeout(r, 3000)); }
    summary(s.id);
  }
  if (process.env.SNAP) { process.kill(server.pid, 'SIGUSR2'); await new Promise((r) => setTimeout(r, 15000)); summary('after-snapshot(gc)'); }
} finally { await server.stop(); await bench.drop(); }
