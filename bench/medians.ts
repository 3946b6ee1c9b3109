/**
 * The median of several full `npm run bench` runs of one commit, which is what decides whether a target is
 * met (docs/performance.md): one run is a sample. Writes `medians.md` and `medians.json` beside the
 * first report unless `--out` says where, every run's figure next to the median.
 *
 * @example
 * npm run bench -- --out /tmp/run1   # three times, then:
 * npm run bench:medians -- /tmp/run1/report.json /tmp/run2/report.json /tmp/run3/report.json --out bench/results
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

interface Side {
  rps: number;
}
interface Scenario {
  id: string;
  title: string;
  target?: number;
  ratio: number;
  server: Side;
  baseline: Side;
  credits?: { server: { writesPerCall?: number } };
}
interface Database {
  kind: 'sqlite' | 'postgresql';
  scenarios: Scenario[];
  memory?: { idleMiB: number; peakMiB: number };
  searchAtLargest?: { names: number; result: { p99Ms: number } };
  import?: { command?: { namesPerSecond: number } };
}
interface Report {
  meta: { commit: string; date: string; totalSeconds: number; quick: boolean };
  databases: Database[];
}

/** Targets that are not a ratio: bounds on one figure of each database's phase. */
const ABSOLUTE: {
  id: string;
  title: string;
  read: (db: Database) => number | undefined;
  /** Met when the figure is at most (`max`) or at least (`min`) this, per database. */
  bound: (kind: Database['kind']) => { max?: number; min?: number } | undefined;
  unit: string;
}[] = [
  {
    id: 'p99-1m',
    title: 'search on 1,000,000 names under load: p99',
    read: (db) => (db.searchAtLargest?.names === 1_000_000 ? db.searchAtLargest.result.p99Ms : undefined),
    bound: () => ({ max: 50 }),
    unit: 'ms',
  },
  {
    id: 'rss-idle',
    title: 'resident memory, idle',
    read: (db) => db.memory?.idleMiB,
    bound: () => ({ max: 170 }),
    unit: 'MiB',
  },
  {
    id: 'rss-peak',
    title: 'resident memory, peak',
    read: (db) => db.memory?.peakMiB,
    bound: () => ({ max: 300 }),
    unit: 'MiB',
  },
  {
    id: 'import',
    title: '`names:import`, the command',
    read: (db) => db.import?.command?.namesPerSecond,
    bound: (kind) => ({ min: kind === 'sqlite' ? 50_000 : 20_000 }),
    unit: 'names/s',
  },
  {
    id: 'ledger-writes',
    title: 'ledger writes per paid call (worst scenario)',
    read: (db) => {
      const seen = db.scenarios.map((s) => s.credits?.server.writesPerCall).filter((w): w is number => w !== undefined);
      return seen.length ? Math.max(...seen) : undefined;
    },
    bound: (kind) => (kind === 'postgresql' ? { max: 0.1 } : undefined),
    unit: '',
  },
];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const meets = (value: number, bound: { max?: number; min?: number }) =>
  (bound.max === undefined || value <= bound.max) && (bound.min === undefined || value >= bound.min);

const fmt = (n: number, unit = '') =>
  unit === 'names/s'
    ? Math.round(n).toLocaleString('en-US')
    : unit === ''
      ? n.toFixed(Math.abs(n) < 1 ? 3 : 2)
      : `${n.toFixed(1)}`;

export interface MedianRow {
  database: Database['kind'];
  id: string;
  title: string;
  runs: (number | null)[];
  median: number | null;
  target: string;
  met: boolean | null;
}

export function medians(reports: Report[]): MedianRow[] {
  const rows: MedianRow[] = [];
  const kinds = [...new Set(reports.flatMap((r) => r.databases.map((d) => d.kind)))];
  for (const kind of kinds) {
    const dbs = reports.map((r) => r.databases.find((d) => d.kind === kind));
    const ids = [...new Set(dbs.flatMap((d) => d?.scenarios.map((s) => s.id) ?? []))];
    for (const id of ids) {
      const scenarios = dbs.map((d) => d?.scenarios.find((s) => s.id === id));
      const runs = scenarios.map((s) => (s ? s.ratio : null));
      const present = runs.filter((r): r is number => r !== null);
      const m = present.length ? median(present) : null;
      const target = scenarios.find((s) => s?.target !== undefined)?.target;
      rows.push({
        database: kind,
        id,
        title: `${scenarios.find(Boolean)?.title ?? id} (ratio)`,
        runs,
        median: m,
        target: target === undefined ? '—' : `≥ ${target}`,
        met: target === undefined || m === null ? null : m >= target,
      });
    }
    for (const measure of ABSOLUTE) {
      const bound = measure.bound(kind);
      const runs = dbs.map((d) => (d ? (measure.read(d) ?? null) : null));
      const present = runs.filter((r): r is number => r !== null);
      if (!present.length) continue;
      const m = median(present);
      rows.push({
        database: kind,
        id: measure.id,
        title: `${measure.title}${measure.unit ? ` (${measure.unit})` : ''}`,
        runs,
        median: m,
        target: !bound
          ? '—'
          : bound.max !== undefined
            ? `≤ ${bound.max}`
            : `≥ ${fmt(bound.min as number, measure.unit)}`,
        met: bound ? meets(m, bound) : null,
      });
    }
  }
  return rows;
}

function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length < 1) throw new Error('usage: bench:medians -- <report.json>... [--out DIR]');
  const reports = positionals.map((p) => JSON.parse(readFileSync(p, 'utf8')) as Report);
  if (reports.some((r) => r.meta.quick)) throw new Error('medians are of full runs: a --quick report was given');
  const commits = [...new Set(reports.map((r) => r.meta.commit))];
  const rows = medians(reports);
  const out = values.out ?? dirname(positionals[0] as string);
  const unitOf = (row: MedianRow) => ABSOLUTE.find((a) => a.id === row.id)?.unit ?? '';
  const cell = (v: number | null, row: MedianRow) => (v === null ? '—' : fmt(v, unitOf(row)));
  const lines = [
    '# Bench medians',
    '',
    `${reports.length} full runs of commit ${commits.join(', ')} (${reports.map((r) => r.meta.date.slice(0, 16)).join('; ')}).`,
    'A target is met when the median meets it. Ratios are cipgate req/s ÷ the same run’s baseline req/s.',
    `Durations of the runs: ${reports.map((r) => `${Math.round(r.meta.totalSeconds)} s`).join(', ')} (target < 600 s).`,
    '',
    `| database | measure | ${reports.map((_, i) => `run ${i + 1}`).join(' | ')} | median | target | met |`,
    `|---|---|${reports.map(() => '---:').join('|')}|---:|---|---|`,
    ...rows.map(
      (row) =>
        `| ${row.database} | ${row.title} | ${row.runs.map((v) => cell(v, row)).join(' | ')} | **${cell(row.median, row)}** | ${row.target} | ${row.met === null ? '' : row.met ? '✅' : '❌'} |`,
    ),
    '',
  ];
  writeFileSync(join(out, 'medians.md'), lines.join('\n'));
  writeFileSync(
    join(out, 'medians.json'),
    `${JSON.stringify({ commits, reports: reports.map((r) => r.meta), rows }, null, 2)}\n`,
  );
  console.log(lines.join('\n'));
}

main();
