/**
 * `npm run bench:engines [-- --quick] [-- --rounds N] [-- --out dir]`
 *
 * Gateway engine comparison (issue 6, item 4): Apollo Gateway, as cipgate runs it, against Hive
 * Gateway's runtime with the Rust query planner (`@graphql-hive/router-runtime`), both serving cipgate's
 * own supergraph with in-process subgraphs. Each engine is its own process (bench/engine-server.ts)
 * behind the same plain `node:http` server on 127.0.0.1, over the same embedded SQLite registry, and
 * autocannon sends both the same requests with the same connections and duration. The rounds alternate
 * which engine goes first, so neither always runs on a warmer or quieter machine.
 *
 * Before any load, the first request of every operation goes to both engines and the JSON answers are
 * compared, and a few feature probes (error codes, landing page) record what each engine keeps. Writes
 * bench/results/engines.json and engines.md. Traffic goes to loopback only, bounded in time.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import { firstDifference } from './lib/compare.js';
import { type BenchDatabase, createBenchDatabase } from './lib/dataset.js';
import { type LoadResult, load } from './lib/load.js';
import { machineMeta } from './lib/machine.js';
import { type Child, freePort, place, startChild, withRssPeak } from './lib/processes.js';
import { batchBody, gql, PRIMARY_NAME, PRIMARY_NAMES, searchQueries } from './lib/scenarios.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    out: { type: 'string', default: join(root, 'bench/results') },
  },
});

/** 3 rounds × 3 operations × 2 engines × 6 s ≈ 110 s of load, plus set-up: a bench of its own, under 2.5 min. */
const settings = flags.quick
  ? { durationS: 1, warmupS: 0.5, connections: 4, names: 10_000, rounds: 1 }
  : { durationS: 5, warmupS: 1, connections: 8, names: 100_000, rounds: 3 };
if (flags.rounds) settings.rounds = Math.max(1, Number(flags.rounds));

const ENGINES = ['apollo', 'hive'] as const;
type Engine = (typeof ENGINES)[number];
const ENGINE_TITLES: Record<Engine, string> = {
  apollo: 'Apollo Gateway 2 (JS planner) in Apollo Server 5',
  hive: 'Hive Gateway runtime + Rust query planner (router-runtime)',
};

const log = (msg: string) => process.stderr.write(`[engines ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/**
 * The heavy operation: a search page whose every multichain address is joined to the bridge subgraph's
 * `Chain` entity (identity → bridge, an entity fetch per page), plus the bridge catalogue at the root,
 * so one request plans and runs a sequence of fetches over two subgraphs.
 */
const HEAVY_SEARCH = /* GraphQL */ `query HeavySearch($query: String!, $page: Int!, $perPage: Int!) {
  identitySearch(query: $query, page: $page, perPage: $perPage) {
    results {
      name ownerAddress source provider providerName caip2Id avatar logoURI url expireAt registeredAt
      multichainAddresses { address caip2Id chainName symbol chain { caip2Id name nativeToken isBridgeSupported } }
      txtRecords { key value type }
    }
    pagination { page perPage total totalPages }
  }
  bridgeChains { caip2Id name nativeToken logoURI isBridgeSupported }
}`;

interface Operation {
  id: string;
  title: string;
  requests: Request[];
}

const addressesOf = (body: string): string[] => (JSON.parse(body) as { addresses: string[] }).addresses;

function operations(size: number, apiKey: string): Operation[] {
  return [
    {
      id: 'primaryName',
      title: 'primaryName (1 address, resolution subgraph)',
      requests: addressesOf(batchBody(size, 200, 13)).map((address) =>
        gql('PrimaryName', PRIMARY_NAME, { address, caip2Id: 'move-mvmt:126' }),
      ),
    },
    {
      id: 'primaryNames-100',
      title: 'primaryNames (100 addresses, resolution subgraph)',
      requests: Array.from({ length: 8 }, (_, v) =>
        gql('PrimaryNames', PRIMARY_NAMES, {
          addresses: addressesOf(batchBody(size, 100, v * 101 + 3)),
          caip2Id: 'move-mvmt:126',
        }),
      ),
    },
    {
      id: 'heavy-search',
      title: 'identitySearch + multichainAddresses.chain + bridgeChains (identity → bridge)',
      requests: searchQueries(size, 50).map((query) =>
        gql('HeavySearch', HEAVY_SEARCH, { query, page: 1, perPage: 10 }, { 'x-api-key': apiKey }),
      ),
    },
  ];
}

async function startEngine(engine: Engine, bench: BenchDatabase, cpu: number | undefined): Promise<Child> {
  const port = await freePort();
  return startChild({
    name: engine,
    cpu,
    script: join(root, 'dist/bench/engine-server.js'),
    port,
    readyPath: '/readyz',
    env: {
      ENGINE: engine,
      DATABASE_URL: bench.url,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SANDBOX_SEED: 'false',
      // No upstream naming or bridge services: the bridge catalogue comes from the offline sandbox
      // snapshot, so both engines read the same local data and nothing leaves the machine.
      ENS_RPC_URL: '',
      BASE_RPC_URL: '',
      SOLANA_RPC_URL: '',
      LIFI_ENABLED: 'false',
      ACROSS_ENABLED: 'false',
      BRIDGE_SANDBOX: 'true',
      SUBGRAPH_URLS: '',
      REDIS_URL: '',
      NODE_ENV: 'production',
    },
  });
}

async function answer(
  base: string,
  r: Request,
): Promise<{ status: number; body: unknown; contentType: string | null; text: string }> {
  const res = await fetch(`${base}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: res.status, body, contentType: res.headers.get('content-type'), text };
}

interface Probe {
  id: string;
  what: string;
  /** Per engine: HTTP status and what the answer says (an error code, the landing page's kind). */
  results: Record<Engine, { status: number; seen: string }>;
  same: boolean;
}

const errorCodes = (body: unknown): string => {
  const errors = (body as { errors?: { extensions?: { code?: unknown } }[] } | null)?.errors;
  if (!Array.isArray(errors)) return 'no errors';
  return errors.map((e) => String(e.extensions?.code ?? '(no code)')).join(', ');
};

/** Feature probes: what a client sees from each engine where the engines might differ. */
async function probes(targets: Record<Engine, Child>, apiKey: string): Promise<Probe[]> {
  const cases: {
    id: string;
    what: string;
    request: Request;
    read: (a: Awaited<ReturnType<typeof answer>>) => string;
  }[] = [
    {
      id: 'unauthenticated',
      what: 'paid field without a key: the resolver throws UNAUTHENTICATED in the identity subgraph',
      request: gql('HeavySearch', HEAVY_SEARCH, { query: 'u000123', page: 1, perPage: 10 }),
      read: (a) => errorCodes(a.body),
    },
    {
      id: 'bad-input',
      what: 'a subgraph rejects an argument (primaryName with a malformed address)',
      request: gql('PrimaryName', PRIMARY_NAME, { address: 'not-an-address', caip2Id: 'move-mvmt:126' }),
      read: (a) => errorCodes(a.body),
    },
    {
      id: 'validation',
      what: 'a field the supergraph does not have (gateway validation)',
      request: gql('Nope', 'query Nope { nope }', {}),
      read: (a) => errorCodes(a.body),
    },
    {
      id: 'landing-page',
      what: 'GET /graphql from a browser (Accept: text/html)',
      request: { method: 'GET', path: '/graphql', headers: { accept: 'text/html' } },
      read: (a) =>
        /embeddable-sandbox|apollo-server-landing-page|Apollo Sandbox/i.test(a.text)
          ? 'Apollo Sandbox'
          : /graphiql/i.test(a.text)
            ? 'GraphiQL'
            : `${a.contentType ?? 'no content type'}`,
    },
    {
      id: 'paid-with-key',
      what: 'the heavy operation with a partner key answers without errors',
      request: gql('HeavySearch', HEAVY_SEARCH, { query: 'u000123', page: 1, perPage: 10 }, { 'x-api-key': apiKey }),
      read: (a) => errorCodes(a.body),
    },
  ];
  const out: Probe[] = [];
  for (const c of cases) {
    const results = {} as Probe['results'];
    for (const engine of ENGINES) {
      const a = await answer(targets[engine].url, c.request);
      results[engine] = { status: a.status, seen: c.read(a) };
    }
    out.push({
      id: c.id,
      what: c.what,
      results,
      same: results.apollo.status === results.hive.status && results.apollo.seen === results.hive.seen,
    });
  }
  return out;
}

interface Run {
  round: number;
  /** 1 when this engine went first in its round for this operation. */
  order: number;
  result: LoadResult;
  peakRssMiB: number;
}

interface OperationResult {
  id: string;
  title: string;
  connections: number;
  /** Where the two engines' answers to the first request differ (null: identical JSON). */
  answerDifference: string | null;
  runs: Record<Engine, Run[]>;
  /** Means over the rounds. */
  summary: Record<Engine, { rps: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number }>;
  /** Hive req/s over Apollo req/s. */
  speedup: number;
}

async function measure(target: Child, requests: Request[]): Promise<{ result: LoadResult; peakMiB: number }> {
  const { connections, durationS, warmupS } = settings;
  // Warm-up: JIT, plan caches, statement caches, untimed.
  await load({ url: target.url, requests, connections, durationS: warmupS });
  return withRssPeak(target, () => load({ url: target.url, requests, connections, durationS }));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

function versionOf(pkg: string): string {
  try {
    const out = execFileSync('npm', ['ls', pkg, '--depth=0', '--json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const deps = (JSON.parse(out) as { dependencies?: Record<string, { version?: string }> }).dependencies;
    return deps?.[pkg]?.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

interface EnginesReport {
  meta: Record<string, unknown>;
  engines: Record<Engine, { title: string; idleRssMiB: number; peakRssMiB: number }>;
  operations: OperationResult[];
  probes: Probe[];
}

const f0 = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;

function markdown(r: EnginesReport): string {
  const m = r.meta;
  const lines = [
    '# Gateway engine: Apollo Gateway vs Hive Gateway with the Rust query planner',
    '',
    `Generated by \`npm run bench:engines\` on ${m.date}: ${m.cpus}, ${m.memory}, Node ${m.node}, commit ${m.commit}; ${m.placement}.`,
    `Versions: ${Object.entries(m.versions as Record<string, string>)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `Each engine runs in its own process behind the same \`node:http\` server on 127.0.0.1 (bench/engine-server.ts), with cipgate's four subgraphs executed in-process, over one embedded SQLite registry of ${f0(m.names as number)} names. autocannon sends both the same requests: ${m.connections} connections, ${m.warmupS} s warm-up, then ${m.durationS} s measured, ${m.rounds} round(s) alternating which engine goes first; figures are means over the rounds. Only 2xx answers count. The \`x-api-key\` check runs on both; the credits plugin runs on neither (it exists only for Apollo Server), so paid fields are answered without a ledger debit on both sides.`,
    '',
    '| Operation | conns | Apollo req/s | p50 | p99 | Hive req/s | p50 | p99 | Hive ÷ Apollo | same answer |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const o of r.operations) {
    const a = o.summary.apollo;
    const h = o.summary.hive;
    lines.push(
      `| ${o.title} | ${o.connections} | ${f0(a.rps)} | ${ms(a.p50Ms)} | ${ms(a.p99Ms)} | ${f0(h.rps)} | ${ms(h.p50Ms)} | ${ms(h.p99Ms)} | ${o.speedup.toFixed(2)} | ${o.answerDifference === null ? 'yes' : `no: ${o.answerDifference}`} |`,
    );
  }
  lines.push('', 'Per round (req/s; the engine marked * went first):', '');
  lines.push('| Operation | round | Apollo | Hive |', '|---|---:|---:|---:|');
  for (const o of r.operations) {
    for (let i = 0; i < o.runs.apollo.length; i++) {
      const a = o.runs.apollo[i] as Run;
      const h = o.runs.hive[i] as Run;
      lines.push(
        `| ${o.id} | ${a.round} | ${f0(a.result.rps)}${a.order === 1 ? '*' : ''} | ${f0(h.result.rps)}${h.order === 1 ? '*' : ''} |`,
      );
    }
  }
  const failures = r.operations.flatMap((o) =>
    ENGINES.filter((e) => o.summary[e].non2xx || o.summary[e].errors).map(
      (e) => `${o.id} on ${e}: ${o.summary[e].non2xx} non-2xx, ${o.summary[e].errors} errors (mean per round)`,
    ),
  );
  if (failures.length) lines.push('', ...failures.map((f) => `- ${f}`));
  lines.push('', '## Memory (resident set of each engine process)', '');
  lines.push('| Engine | idle after start | peak under load |', '|---|---:|---:|');
  for (const e of ENGINES) {
    lines.push(`| ${r.engines[e].title} | ${f0(r.engines[e].idleRssMiB)} MiB | ${f0(r.engines[e].peakRssMiB)} MiB |`);
  }
  lines.push('', '## Feature probes (what a client sees)', '');
  lines.push('| Probe | Apollo | Hive | same |', '|---|---|---|---|');
  for (const p of r.probes) {
    const show = (e: Engine) => `${p.results[e].status}: ${p.results[e].seen}`;
    lines.push(`| ${p.what} | ${show('apollo')} | ${show('hive')} | ${p.same ? 'yes' : 'no'} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const { serverCpu, description: placement } = place(true);
  const outDir = resolve(flags.out as string);
  mkdirSync(outDir, { recursive: true });
  log(`building a SQLite registry of ${settings.names.toLocaleString('en')} names`);
  // The PostgreSQL admin URL is unused for SQLite.
  const bench = await createBenchDatabase('sqlite', '', settings.names);
  const targets = {} as Record<Engine, Child>;
  try {
    for (const engine of ENGINES) {
      targets[engine] = await startEngine(engine, bench, serverCpu);
      log(`${engine}: pid ${targets[engine].pid}`);
    }
    // Let start-up work (schema building, first GC) settle before reading idle memory.
    await new Promise((r) => setTimeout(r, 1000));
    const engines = Object.fromEntries(
      ENGINES.map((e) => [e, { title: ENGINE_TITLES[e], idleRssMiB: targets[e].rssMiB(), peakRssMiB: 0 }]),
    ) as EnginesReport['engines'];

    const ops = operations(bench.size, bench.apiKey);
    const results: OperationResult[] = [];
    for (const op of ops) {
      const first = op.requests[0] as Request;
      const [a, h] = [await answer(targets.apollo.url, first), await answer(targets.hive.url, first)];
      for (const [engine, x] of [
        ['apollo', a],
        ['hive', h],
      ] as const) {
        const errors = (x.body as { errors?: unknown } | null)?.errors;
        if (x.status !== 200 || errors)
          throw new Error(`${engine} failed ${op.id}: ${x.status} ${JSON.stringify(x.body).slice(0, 400)}`);
      }
      results.push({
        id: op.id,
        title: op.title,
        connections: settings.connections,
        answerDifference: firstDifference(a.body, h.body),
        runs: { apollo: [], hive: [] },
        summary: {} as OperationResult['summary'],
        speedup: 0,
      });
    }
    const probeResults = await probes(targets, bench.apiKey);

    for (let round = 1; round <= settings.rounds; round++) {
      for (const [i, op] of ops.entries()) {
        const result = results[i] as OperationResult;
        // Alternate who goes first, by round and by operation.
        const order: Engine[] = (round + i) % 2 === 0 ? ['apollo', 'hive'] : ['hive', 'apollo'];
        for (const [k, engine] of order.entries()) {
          const { result: run, peakMiB } = await measure(targets[engine], op.requests);
          result.runs[engine].push({ round, order: k + 1, result: run, peakRssMiB: peakMiB });
          engines[engine].peakRssMiB = Math.max(engines[engine].peakRssMiB, peakMiB);
          log(`round ${round} ${op.id} ${engine}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99Ms.toFixed(1)} ms`);
        }
      }
    }
    for (const result of results) {
      for (const engine of ENGINES) {
        const runs = result.runs[engine].map((r) => r.result);
        result.summary[engine] = {
          rps: mean(runs.map((r) => r.rps)),
          p50Ms: mean(runs.map((r) => r.p50Ms)),
          p99Ms: mean(runs.map((r) => r.p99Ms)),
          non2xx: mean(runs.map((r) => r.non2xx)),
          errors: mean(runs.map((r) => r.errors + r.timeouts)),
        };
      }
      result.speedup = result.summary.apollo.rps > 0 ? result.summary.hive.rps / result.summary.apollo.rps : 0;
    }

    const report: EnginesReport = {
      meta: {
        ...machineMeta(root),
        placement,
        versions: Object.fromEntries(
          [
            '@apollo/gateway',
            '@apollo/server',
            '@graphql-hive/gateway-runtime',
            '@graphql-hive/router-runtime',
            'graphql',
          ].map((p) => [p, versionOf(p)]),
        ),
        quick: flags.quick,
        database: 'sqlite',
        ...settings,
        totalSeconds: Math.round((performance.now() - started) / 1000),
      },
      engines,
      operations: results,
      probes: probeResults,
    };
    writeFileSync(join(outDir, 'engines.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(outDir, 'engines.md'), markdown(report));
    log(`done in ${report.meta.totalSeconds} s: ${join(outDir, 'engines.md')}`);
  } finally {
    for (const engine of ENGINES) await targets[engine]?.stop();
    await bench.drop();
  }
}

await main();
