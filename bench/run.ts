/**
 * `npm run bench [-- --quick] [-- --db sqlite|postgresql] [-- --only id,id] [-- --no-scale]`
 *
 * Builds a registry, starts cipgate (the compiled `dist/src/main.js`, exactly as deployed) and the
 * framework-free baseline as two separate processes on 127.0.0.1, drives both with the same requests
 * from this process, and writes bench/results/report.json and report.md. Every run measures its own
 * baseline, so the ratios hold on whatever machine runs it. Traffic goes to loopback only, bounded in
 * connections and time.
 */
import 'reflect-metadata';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import { findNames, findNamesByPrefix, findPrimaryNames } from '../src/features/resolution/registry/store.js';
import type { Database } from '../src/platform/db/orm.js';
import { firstDifference } from './lib/compare.js';
import { BENCH_CREDITS, type BenchDatabase, createBenchDatabase, importSpeed } from './lib/dataset.js';
import { combine, type LoadResult, load, type TimedLoad, timedLoad } from './lib/load.js';
import { machineMeta } from './lib/machine.js';
import {
  type Child,
  freePort,
  machineBusyMs,
  place,
  scriptNodeArgs,
  startChild,
  withRssPeak,
  withRssPeaks,
} from './lib/processes.js';
import { type ProfileSummary, summarize } from './lib/profile.js';
import {
  type CpuPerAnswer,
  type DatabaseReport,
  markdown,
  type Report,
  type ScaleRow,
  type ScenarioResult,
} from './lib/report.js';
import { batchRequests, type Scenario, scenarios, searchRequests } from './lib/scenarios.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const resultsDir = join(root, 'bench/results');

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    db: { type: 'string', default: 'sqlite,postgresql' },
    only: { type: 'string' },
    'no-scale': { type: 'boolean', default: false },
    /** Profile cipgate (--cpu-prof) per scenario instead of benchmarking; writes profile.md/json. */
    profile: { type: 'boolean', default: false },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    out: { type: 'string', default: resultsDir },
  },
});

/**
 * The run's shape. The full run fits the issue's 10-minute budget on a 2-core machine: about 2 × 10
 * scenarios × 2 servers × 6 s, plus the scale steps and the 1M-name bulk loads.
 */
const settings = flags.quick
  ? {
      durationS: 1,
      slices: 2,
      warmupS: 0.5,
      connections: 4,
      mainSize: 10_000,
      scaleSizes: [2_000, 10_000],
      scaleDurationS: 1,
      importLines: 20_000,
    }
  : {
      durationS: 5,
      slices: 5,
      warmupS: 1,
      connections: 8,
      mainSize: 100_000,
      scaleSizes: [10_000, 100_000, 1_000_000],
      scaleDurationS: 2,
      importLines: 200_000,
    };
if (flags['no-scale']) settings.scaleSizes = [settings.mainSize];

const kinds = (flags.db ?? '').split(',').map((k) => k.trim()) as ('sqlite' | 'postgresql')[];
const only = flags.only ? new Set(flags.only.split(',')) : undefined;

const log = (msg: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function startServer(
  bench: BenchDatabase,
  cpu: number | undefined,
  extraNodeArgs: string[] = [],
): Promise<Child> {
  const serverPort = await freePort();
  const nodeArgs = [...scriptNodeArgs('start'), ...extraNodeArgs];
  return startChild({
    name: 'cipgate',
    cpu,
    script: join(root, 'dist/src/main.js'),
    port: serverPort,
    readyPath: '/readyz',
    nodeArgs,
    env: {
      DATABASE_URL: bench.url,
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      // Request logging is real production work, but writing it to a pipe nobody reads measures the
      // pipe; warn keeps errors visible.
      LOG_LEVEL: 'warn',
      // The limits would otherwise turn most of a load test into 429s.
      RATE_LIMIT_PARTNER_MAX: '10000000',
      RATE_LIMIT_PUBLIC_MAX: '10000000',
      SANDBOX_SEED: 'false',
      // One process, in-process subgraphs, no external naming upstreams: nothing but cipgate and its database.
      REDIS_URL: '',
      SUBGRAPH_URLS: '',
      ENS_RPC_URL: '',
      BASE_RPC_URL: '',
      SOLANA_RPC_URL: '',
      NODE_ENV: 'production',
    },
  });
}

async function startServers(
  bench: BenchDatabase,
  cpu: number | undefined,
): Promise<{ server: Child; baseline: Child }> {
  const server = await startServer(bench, cpu);
  const baselinePort = await freePort();
  const baseline = await startChild({
    name: 'baseline',
    cpu,
    script: join(root, 'dist/bench/baseline-server.js'),
    port: baselinePort,
    readyPath: '/readyz',
    env: { DATABASE_URL: bench.url, PORT: String(baselinePort) },
  });
  return { server, baseline };
}

/** Status and JSON body of one request, for the pre-flight check. */
async function answer(base: string, r: Request): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: res.status, body };
}

interface Books {
  usage: number;
  /** balance + usage equals the grant and nothing is reserved. */
  consistent: boolean;
}

/** Both partners' books (cipgate's, the baseline's) and, on PostgreSQL, its count of partner-row updates. */
async function creditState(bench: BenchDatabase): Promise<{ ours: Books; theirs: Books; partnerWrites?: number }> {
  // Requests still in flight when autocannon stops hold reservations until they settle, which under
  // contention takes longer than one request's latency: wait for the holds to drain (bounded) before
  // judging the books.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await bench.db.query<Record<string, number | string>>(
      'select id, credit_balance, credit_usage, credit_reserved from partner where id in (?, ?)',
      [bench.partnerId, bench.baselinePartnerId],
    );
    const books = (id: string): Books & { reserved: number } => {
      const row = rows.find((r) => r.id === id);
      const balance = Number(row?.credit_balance);
      const usage = Number(row?.credit_usage);
      const reserved = Number(row?.credit_reserved);
      return { usage, reserved, consistent: balance + usage === BENCH_CREDITS && reserved === 0 };
    };
    const ours = books(bench.partnerId);
    const theirs = books(bench.baselinePartnerId);
    if ((ours.reserved === 0 && theirs.reserved === 0) || Date.now() > deadline) {
      return {
        ours: { usage: ours.usage, consistent: ours.consistent },
        theirs: { usage: theirs.usage, consistent: theirs.consistent },
        ...(await partnerWrites(bench)),
      };
    }
    await sleep(200);
  }
}

/**
 * Every ledger write (a per-request hold or settlement, a lease taken, flushed or handed back) updates
 * the partner row once, so PostgreSQL's count of updates of the partner table is the ledger's write count,
 * cipgate's and the baseline's together (each side has its own row; the table is counted as one). A
 * backend that reported less than a second ago keeps what it counted since and reports it once idle for
 * 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): without the wait, the count read after a scenario missed
 * its last second of writes and the next scenario's count gained them.
 */
async function partnerWrites(bench: BenchDatabase): Promise<{ partnerWrites?: number }> {
  if (bench.kind !== 'postgresql') return {};
  await sleep(10_500);
  const [row] = await bench.db.query<{ n: number | string }>(
    "select n_tup_upd as n from pg_stat_user_tables where relname = 'partner'",
  );
  return { partnerWrites: Number(row?.n ?? 0) };
}

async function measure(
  target: Child,
  requests: Request[],
  connections: number,
  durationS: number,
  warmupS: number,
): Promise<LoadResult> {
  // Warm-up: JIT, statement caches and pools, untimed.
  if (warmupS > 0) await load({ url: target.url, requests, connections, durationS: warmupS });
  return load({ url: target.url, requests, connections, durationS });
}

/**
 * One scenario: a pre-flight comparison of the two answers, a warm-up of each side, then the measured time
 * in slices that alternate between the servers, each side's first slice in turn (cipgate, baseline,
 * baseline, cipgate, …). This machine's speed drifts by tens of percent within a minute; measured one
 * after the other, the two sides met different machines, and the ratio of one scenario moved by up to a
 * third between runs. Alternating, a drift weighs on both sides alike. Each side pays with its own
 * partner, so the books tell the two sides' charges apart.
 */
async function runScenario(
  ours: Scenario,
  theirs: Scenario,
  bench: BenchDatabase,
  server: Child,
  baseline: Child,
): Promise<ScenarioResult> {
  const result: ScenarioResult = { id: ours.id, title: ours.title, connections: ours.connections, target: ours.target };
  const [a, b] = await Promise.all([
    answer(server.url, ours.requests[0] as Request),
    answer(baseline.url, theirs.requests[0] as Request),
  ]);
  if (a.status !== 200) {
    result.skipped = `cipgate answered ${a.status} ${JSON.stringify(a.body).slice(0, 160)}`;
    return result;
  }
  if (b.status !== 200) throw new Error(`baseline answered ${b.status} for ${ours.id}: ${JSON.stringify(b.body)}`);
  result.answerDifference = firstDifference(a.body, b.body);

  const sides = [
    { target: server, scenario: ours, runs: [] as TimedLoad[], cpu: { serverMs: 0, generatorMs: 0, machineMs: 0 } },
    { target: baseline, scenario: theirs, runs: [] as TimedLoad[], cpu: { serverMs: 0, generatorMs: 0, machineMs: 0 } },
  ];
  const slice = ({ target, scenario }: (typeof sides)[number], durationS: number) =>
    timedLoad({ url: target.url, requests: scenario.requests, connections: scenario.connections, durationS });
  // Where each side's CPU went: the machine's busy time less the server's and the load generator's is the
  // database server's on PostgreSQL (and ~0 with SQLite), which the ratio alone does not show.
  const measured = async (side: (typeof sides)[number], durationS: number) => {
    const server = side.target.cpuMs();
    const generator = process.cpuUsage();
    const machine = machineBusyMs();
    const run = await slice(side, durationS);
    const spent = process.cpuUsage(generator);
    side.cpu.serverMs += side.target.cpuMs() - server;
    side.cpu.generatorMs += (spent.user + spent.system) / 1000;
    side.cpu.machineMs += machineBusyMs() - machine;
    return run;
  };
  // Warm-up first, so the credits counted are those of the measured answers only.
  if (settings.warmupS > 0) for (const side of sides) await slice(side, settings.warmupS);
  const before = ours.paid ? await creditState(bench) : undefined;
  const { peaksMiB } = await withRssPeaks([server, baseline], async () => {
    for (let i = 0; i < settings.slices; i++) {
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        side.runs.push(await measured(side, settings.durationS / settings.slices));
      }
    }
  });
  const after = ours.paid ? await creditState(bench) : undefined;
  const [oursMeasured, theirsMeasured] = sides.map((side) => combine(side.runs)) as [LoadResult, LoadResult];
  result.server = oursMeasured;
  result.baseline = theirsMeasured;
  [result.serverPeakRssMiB, result.baselinePeakRssMiB] = peaksMiB;
  result.ratio = theirsMeasured.rps > 0 ? oursMeasured.rps / theirsMeasured.rps : 0;
  const perAnswer = ({ cpu }: (typeof sides)[number], answers: number): CpuPerAnswer => ({
    serverUs: (cpu.serverMs * 1000) / Math.max(1, answers),
    generatorUs: (cpu.generatorMs * 1000) / Math.max(1, answers),
    restUs: (Math.max(0, cpu.machineMs - cpu.serverMs - cpu.generatorMs) * 1000) / Math.max(1, answers),
  });
  result.cpu = {
    server: perAnswer(sides[0] as (typeof sides)[number], oursMeasured.ok),
    baseline: perAnswer(sides[1] as (typeof sides)[number], theirsMeasured.ok),
  };
  if (ours.target !== undefined) result.met = result.ratio >= ours.target;
  if (before && after) {
    const theirCharges = after.theirs.usage - before.theirs.usage;
    // The baseline charges each paid call (1 credit) with one UPDATE of its partner row: what the row
    // count says beyond those is cipgate's.
    const ourWrites =
      after.partnerWrites !== undefined && before.partnerWrites !== undefined
        ? after.partnerWrites - before.partnerWrites - theirCharges
        : undefined;
    result.credits = {
      server: {
        answers: oursMeasured.ok,
        charged: after.ours.usage - before.ours.usage,
        consistent: before.ours.consistent && after.ours.consistent,
        ...(ourWrites !== undefined ? { writesPerCall: ourWrites / Math.max(1, oursMeasured.ok) } : {}),
      },
      baseline: {
        answers: theirsMeasured.ok,
        charged: theirCharges,
        consistent: before.theirs.consistent && after.theirs.consistent,
      },
    };
  }
  return result;
}

async function scaleStep(bench: BenchDatabase, server: Child, baseline: Child, loadSeconds: number): Promise<ScaleRow> {
  const search = searchRequests(bench.size, bench.apiKey, 50);
  const batch = batchRequests(bench.size, 1000, 4);
  const d = settings.scaleDurationS;
  // One connection: the time of one request, without queueing behind others.
  return {
    names: bench.size,
    loadSeconds,
    search: { server: await measure(server, search, 1, d, 0.5), baseline: await measure(baseline, search, 1, d, 0.5) },
    batch1000: { server: await measure(server, batch, 1, d, 0.5), baseline: await measure(baseline, batch, 1, d, 0.5) },
  };
}

/**
 * The plans of the service's own registry queries (src/features/resolution/registry/store.ts) on the
 * current table: each store function runs against a recorder, and the statement it sent is explained.
 */
async function plans(bench: BenchDatabase): Promise<Record<string, string>> {
  const explain = bench.db.dialect === 'postgresql' ? 'explain (costs off)' : 'explain query plan';
  const sent = async (run: (db: Pick<Database, 'query' | 'queryRows' | 'dialect'>) => Promise<unknown>) => {
    let statement: [string, unknown[]] = ['', []];
    await run({
      dialect: bench.db.dialect,
      query: async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
        statement = [sql, params];
        return [];
      },
      queryRows: async <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> => {
        statement = [sql, [...params]];
        return [];
      },
    });
    return statement;
  };
  const keys = Array.from({ length: 1000 }, (_, i) => `0x${String(i).padStart(64, '0')}`);
  const queries: Record<string, [string, unknown[]]> = {
    'search prefix listing (findNamesByPrefix)': await sent((db) => findNamesByPrefix(db, 'u000123', 500)),
    'name lookup (findNames)': await sent((db) => findNames(db, '126', ['u0001234.snow'])),
    '1000-address reverse batch (findPrimaryNames)': await sent((db) => findPrimaryNames(db, '126', keys)),
  };
  const out: Record<string, string> = {};
  for (const [what, [sql, params]] of Object.entries(queries)) {
    const rows = await bench.db.query<Record<string, unknown>>(`${explain} ${sql}`, params);
    // The 1000 literal keys would fill pages: each plan line is cut to what names the index.
    out[what] = rows.map((r) => String(r['QUERY PLAN'] ?? r.detail).slice(0, 160)).join('\n');
  }
  return out;
}

async function benchDatabase(kind: 'sqlite' | 'postgresql'): Promise<DatabaseReport> {
  const sizes = settings.scaleSizes;
  log(`${kind}: building a registry of ${sizes[0]?.toLocaleString('en')} names`);
  const t0 = performance.now();
  const bench = await createBenchDatabase(kind, flags.pg as string, sizes[0] as number);
  const firstLoad = (performance.now() - t0) / 1000;
  const placement = place(kind === 'sqlite');
  const report: DatabaseReport = {
    kind,
    placement: placement.description,
    names: settings.mainSize,
    scenarios: [],
    scale: [],
    plans: {},
    memory: { idleMiB: 0, peakMiB: 0, afterLoadMiB: 0 },
  };
  let servers: { server: Child; baseline: Child } | undefined;
  try {
    servers = await startServers(bench, placement.serverCpu);
    const { server, baseline } = servers;
    await sleep(1000);
    report.memory.idleMiB = server.rssMiB();
    log(`${kind}: cipgate pid ${server.pid} idle at ${report.memory.idleMiB.toFixed(0)} MiB`);
    for (const size of sizes) {
      const loadSeconds = size > bench.size ? await bench.grow(size) : firstLoad;
      log(`${kind}: ${size.toLocaleString('en')} names (loaded in ${loadSeconds.toFixed(1)} s)`);
      if (!flags['no-scale'] || sizes.length > 1)
        report.scale.push(await scaleStep(bench, server, baseline, loadSeconds));
      if (size === settings.mainSize) {
        const theirs = scenarios(size, bench.baselineApiKey, settings.connections);
        for (const s of scenarios(size, bench.apiKey, settings.connections)) {
          if (only && !only.has(s.id)) continue;
          // Free calls (stats reads the caller's own partner) keep one key, so both answers name one partner.
          const r = await runScenario(s, theirs.find((t) => t.id === s.id && t.paid) ?? s, bench, server, baseline);
          report.scenarios.push(r);
          report.memory.peakMiB = Math.max(report.memory.peakMiB, r.serverPeakRssMiB ?? 0);
          log(
            r.skipped
              ? `${kind} ${s.id}: skipped (${r.skipped})`
              : `${kind} ${s.id}: ${r.server?.rps.toFixed(0)} req/s vs ${r.baseline?.rps.toFixed(0)} (ratio ${r.ratio?.toFixed(2)})`,
          );
        }
      }
    }
    const largest = sizes[sizes.length - 1] as number;
    if (largest !== settings.mainSize && (!only || only.has('partner-search'))) {
      const { result, peakMiB } = await withRssPeak(server, () =>
        measure(
          server,
          searchRequests(bench.size, bench.apiKey, 50),
          settings.connections,
          settings.durationS,
          settings.warmupS,
        ),
      );
      report.memory.peakMiB = Math.max(report.memory.peakMiB, peakMiB);
      report.searchAtLargest = { names: bench.size, connections: settings.connections, result };
    }
    report.plans = await plans(bench);
    await sleep(2000);
    report.memory.afterLoadMiB = server.rssMiB();
    // Alone on the machine: the importer is a one-process CLI, timed by itself, with every core (the load
    // generator's pinning is undone; its GC threads would share one core otherwise). The servers are
    // stopped first: left idle after the load they still slow the command, their collectors tidying up
    // on the core it may get.
    if (!only) {
      await servers.server.stop();
      await servers.baseline.stop();
      servers = undefined;
      place(false);
      report.import = await importSpeed(kind, flags.pg as string, settings.importLines);
      log(
        `${kind}: names:import ${report.import.command.namesPerSecond.toFixed(0)} names/s (in the bench process ${report.import.inProcess.namesPerSecond.toFixed(0)})${
          report.import.beside
            ? `; beside a writer ${report.import.beside.namesPerSecond.toFixed(0)} names/s, its writes ${report.import.beside.probe.failed} failed, longest wait ${report.import.beside.probe.maxMs} ms`
            : ''
        }`,
      );
    }
  } finally {
    await servers?.server.stop();
    await servers?.baseline.stop();
    await bench.drop();
  }
  return report;
}

const PROFILED = ['public-name', 'public-names-1000', 'partner-stats', 'partner-search', 'graphql-name'];

/**
 * One cipgate process per scenario under `--cpu-prof`, so each profile shows one request type only.
 * The summary goes to profile.md and profile.json, each raw profile to profile-<db>-<scenario>.cpuprofile.
 */
async function profileRun(outDir: string): Promise<void> {
  const kind = kinds[0] ?? 'postgresql';
  const bench = await createBenchDatabase(kind, flags.pg as string, settings.mainSize);
  const { serverCpu } = place(kind === 'sqlite');
  const profDir = mkdtempSync(join(tmpdir(), 'cipgate-prof-'));
  const results: { id: string; title: string; rps: number; summary: ProfileSummary }[] = [];
  try {
    for (const s of scenarios(bench.size, bench.apiKey, settings.connections)) {
      if (!(only ?? new Set(PROFILED)).has(s.id)) continue;
      const dir = join(profDir, s.id);
      const server = await startServer(bench, serverCpu, ['--cpu-prof', '--cpu-prof-dir', dir]);
      let rps = 0;
      const nowUs = () => Number(process.hrtime.bigint() / 1000n);
      let window = { fromUs: 0, toUs: 0 };
      try {
        // Warm-up outside the window: the profile shows steady-state requests only.
        await load({ url: server.url, requests: s.requests, connections: s.connections, durationS: settings.warmupS });
        window = { fromUs: nowUs(), toUs: 0 };
        rps = (
          await load({
            url: server.url,
            requests: s.requests,
            connections: s.connections,
            durationS: settings.durationS,
          })
        ).rps;
        window.toUs = nowUs();
      } finally {
        await server.stop();
      }
      const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error(`no CPU profile written for ${s.id}`);
      results.push({ id: s.id, title: s.title, rps, summary: summarize(join(dir, file), window) });
      // Kept beside the summary for DevTools (Performance → load profile) or a closer look.
      copyFileSync(join(dir, file), join(outDir, `profile-${kind}-${s.id}.cpuprofile`));
      log(`profiled ${s.id}: ${rps.toFixed(0)} req/s under the profiler`);
    }
  } finally {
    await bench.drop();
    rmSync(profDir, { recursive: true, force: true });
  }
  writeFileSync(join(outDir, 'profile.json'), `${JSON.stringify({ kind, meta: settings, results }, null, 2)}\n`);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const md = [
    `# Where cipgate spends CPU time (${kind}, ${settings.mainSize.toLocaleString('en')} names, ${settings.connections} connections)`,
    '',
    'One server process per scenario under `node --cpu-prof`; shares are of the busy (non-idle) main-thread time during the measured load only (start-up and warm-up excluded). Self time counts a frame where the CPU is; inclusive time counts every frame on the stack, so inclusive shares overlap.',
    '',
  ];
  for (const r of results) {
    const { summary: p } = r;
    md.push(
      `## ${r.title} — ${r.rps.toFixed(0)} req/s under the profiler, ${(p.busyMs / 1000).toFixed(1)} s busy, ${(p.idleMs / 1000).toFixed(1)} s idle`,
      '',
    );
    md.push(
      '| Self time by area | share |',
      '|---|---:|',
      ...p.self.slice(0, 10).map((a) => `| ${a.area} | ${pct(a.share)} |`),
      '',
    );
    md.push(
      '| Inclusive time | share |',
      '|---|---:|',
      ...p.inclusive.map((a) => `| ${a.what} | ${pct(a.share)} |`),
      '',
    );
    md.push(
      '| Heaviest functions (self) | share | called from |',
      '|---|---:|---|',
      ...p.topFunctions.slice(0, 8).map((a) => `| \`${a.fn}\` | ${pct(a.share)} | ${a.calledFrom ?? ''} |`),
      '',
    );
  }
  writeFileSync(join(outDir, 'profile.md'), `${md.join('\n')}\n`);
}

async function main(): Promise<void> {
  const started = performance.now();
  const report: Report = {
    meta: {
      ...machineMeta(root),
      quick: flags.quick,
      ...settings,
    },
    databases: [],
    notes: [],
  };
  const outDir = resolve(flags.out as string);
  mkdirSync(outDir, { recursive: true });
  if (flags.profile) {
    await profileRun(outDir);
    log(`done in ${Math.round((performance.now() - started) / 1000)} s: ${join(outDir, 'profile.md')}`);
    return;
  }
  const write = () => {
    report.meta.totalSeconds = Math.round((performance.now() - started) / 1000);
    writeFileSync(join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(outDir, 'report.md'), markdown(report));
  };
  for (const kind of kinds) {
    try {
      report.databases.push(await benchDatabase(kind));
    } catch (err) {
      report.notes.push(`${kind}: the run failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      log(`${kind} failed: ${err instanceof Error ? err.stack : String(err)}`);
      process.exitCode = 1;
    }
    // Written after each database, so an interrupted run still leaves its first half.
    write();
  }
  for (const db of report.databases)
    for (const s of db.scenarios)
      if (s.skipped) report.notes.push(`${db.kind} ${s.id} skipped: ${s.skipped}. Re-run once the endpoint lands.`);
  write();
  log(`done in ${report.meta.totalSeconds} s: ${join(outDir, 'report.md')}`);
}

await main();
