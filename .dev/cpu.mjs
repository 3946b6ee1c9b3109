// Server CPU µs per request, A/B: node .dev/cpu.mjs <scenarios,..> [rounds] [db] — sides /work/ab-old and /work/main
import { readFileSync } from 'node:fs';
const lib = '/work/main/dist/bench/lib';
const { createBenchDatabase } = await import(`${lib}/dataset.js`);
const { scenarios } = await import(`${lib}/scenarios.js`);
const { load } = await import(`${lib}/load.js`);
const { startChild, freePort } = await import(`${lib}/processes.js`);
const [ids, rounds = '3', kind = 'sqlite'] = process.argv.slice(2);
const want = new Set(ids.split(','));
const bench = await createBenchDatabase(kind, 'postgres://postgres@127.0.0.1:5432/test', 100_000);
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (+f[11] + +f[12]) * 10_000; }; // µs (100 Hz ticks)
const sides = process.env.VARIANTS ? process.env.VARIANTS.split(';') : ['/work/ab-old', '/work/main'];
const res = {};
try {
  for (let r = 0; r < +rounds; r++) for (const side of (r % 2 ? [...sides].reverse() : sides)) {
    const port = await freePort();
    const [dir, extra] = side.includes('|') ? side.split('|') : [side, ''];
    const server = await startChild({ name: side, script: dir === 'BASELINE' ? '/work/main/dist/bench/baseline-server.js' : `${dir}/dist/src/main.js`, port, readyPath: '/readyz', nodeArgs: extra.startsWith('ARGS=') ? extra.slice(5).split(' ') : ['--max-semi-space-size=8', '--heap-growing-percent=100'],
      env: { DATABASE_URL: bench.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PARTNER_MAX: '10000000', RATE_LIMIT_PUBLIC_MAX: '10000000', SANDBOX_SEED: 'false', REDIS_URL: '', SUBGRAPH_URLS: '', ENS_RPC_URL: '', BASE_RPC_URL: '', SOLANA_RPC_URL: '', NODE_ENV: 'production', ...Object.fromEntries(extra && !extra.startsWith('ARGS=') ? extra.split(',').map((kv) => kv.split('=')) : []) } });
    try {
      for (const s of scenarios(bench.size, bench.apiKey, 8)) {
        if (!want.has(s.id)) continue;
        await load({ url: server.url, requests: s.requests, connections: s.connections, durationS: 1 });
        const c0 = cpu(server.pid);
        let peak = 0; const rss = () => +readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1] / 1024;
        const timer = setInterval(() => { peak = Math.max(peak, rss()); }, 200);
        const out = await load({ url: server.url, requests: s.requests, connections: s.connections, durationS: 4 });
        clearInterval(timer);
        const n = out.rps * 4; const us = (cpu(server.pid) - c0) / n;
        (res[`${s.id} ${side}`] ??= []).push(us);
        console.log(`${s.id.padEnd(20)} ${side.padEnd(14)} ${us.toFixed(1)} µs/req  ${out.rps.toFixed(0)} req/s  peak ${peak.toFixed(0)} MiB`);
      }
    } finally { await server.stop(); }
  }
} finally { await bench.drop(); }
console.log('--- median µs/req');
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(k.padEnd(36), v[v.length >> 1].toFixed(1), ' all:', v.map((x) => x.toFixed(0)).join(' ')); }
