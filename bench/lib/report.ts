import type { ImportProcess, ImportSpeed } from './dataset.js';
import type { LoadResult } from './load.js';

export interface ScenarioResult {
  id: string;
  title: string;
  connections: number;
  target?: number;
  skipped?: string;
  server?: LoadResult;
  baseline?: LoadResult;
  /** Service requests/s over baseline requests/s. */
  ratio?: number;
  met?: boolean;
  /** Where the two answers to the first request differ, if they do (null: identical). */
  answerDifference?: string | null;
  /** Credits: charged by each side over the run and whether the balance stayed consistent. */
  credits?: { server: CreditCheck; baseline: CreditCheck };
  serverPeakRssMiB?: number;
  baselinePeakRssMiB?: number;
  /** CPU each side's counted answers cost over the measured slices (Linux /proc). */
  cpu?: { server: CpuPerAnswer; baseline: CpuPerAnswer };
}

/**
 * CPU time per counted answer, in µs: the server's process (every thread), the load generator (the bench
 * process) and the rest of the machine's busy time, which is the database server's on PostgreSQL and
 * about nothing with SQLite. Read with /proc's 10 ms ticks over 5 s: a few µs of noise on light requests.
 */
export interface CpuPerAnswer {
  serverUs: number;
  generatorUs: number;
  restUs: number;
}

export interface CreditCheck {
  answers: number;
  charged: number;
  /** balance + usage still equals what was granted, and nothing is left reserved. */
  consistent: boolean;
  /** Ledger writes (updates of the partner row) per counted answer; PostgreSQL only. */
  writesPerCall?: number;
}

export interface ScaleRow {
  names: number;
  loadSeconds: number;
  search: { server: LoadResult; baseline: LoadResult };
  batch1000: { server: LoadResult; baseline: LoadResult };
}

export interface DatabaseReport {
  kind: 'sqlite' | 'postgresql';
  /** Which CPUs the load generator and the servers ran on (`place`). */
  placement: string;
  names: number;
  scenarios: ScenarioResult[];
  scale: ScaleRow[];
  /** The search target's own run: the service under load on the largest registry. */
  searchAtLargest?: { names: number; connections: number; result: LoadResult };
  plans: Record<string, string>;
  memory: { idleMiB: number; peakMiB: number; afterLoadMiB: number };
  /** `names:import` into an empty database: the command in its own process, and called in the bench's. */
  import?: ImportSpeed;
}

export interface Report {
  meta: Record<string, unknown>;
  databases: DatabaseReport[];
  gateway?: unknown;
  notes: string[];
}

const f0 = (n: number) => Math.round(n).toLocaleString('en');
/** The import command's process as it reported itself: first-touched pages are what a virtual host makes dear. */
const usage = (p: ImportProcess): string =>
  `its process: ${p.userSeconds.toFixed(2)} s user and ${p.systemSeconds.toFixed(2)} s system CPU, ${f0(p.pageFaults)} page faults, peak ${f0(p.peakMiB)} MiB`;
const f1 = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const ms = (n: number) => `${f1(n)} ms`;

function scenarioTable(rows: ScenarioResult[]): string[] {
  const out = [
    '| Scenario | conns | cipgate req/s | p50 | p99 | baseline req/s | p50 | p99 | ratio | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    if (r.skipped || !r.server || !r.baseline) {
      out.push(`| ${r.title} | | skipped: ${r.skipped ?? 'no result'} | | | | | | | |`);
      continue;
    }
    const s = r.server;
    const b = r.baseline;
    const target = r.target === undefined ? '' : `≥ ${r.target} ${r.met ? '✅' : '❌'}`;
    const bad = s.non2xx + s.errors + s.timeouts;
    const flag = bad ? ` (${bad} failed)` : '';
    out.push(
      `| ${r.title} | ${r.connections} | ${f0(s.rps)}${flag} | ${ms(s.p50Ms)} | ${ms(s.p99Ms)} | ${f0(b.rps)} | ${ms(b.p50Ms)} | ${ms(b.p99Ms)} | ${(r.ratio ?? 0).toFixed(2)} | ${target} |`,
    );
  }
  return out;
}

function cpuTable(rows: ScenarioResult[]): string[] {
  const out = [
    '| Scenario | cipgate process | rest (database) | generator | baseline process | rest (database) | generator |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const us = (n: number) => `${n < 100 ? n.toFixed(1) : f0(n)} µs`;
  for (const r of rows) {
    if (!r.cpu) continue;
    const { server: s, baseline: b } = r.cpu;
    out.push(
      `| ${r.title} | ${us(s.serverUs)} | ${us(s.restUs)} | ${us(s.generatorUs)} | ${us(b.serverUs)} | ${us(b.restUs)} | ${us(b.generatorUs)} |`,
    );
  }
  return out.length > 2 ? out : [];
}

function scaleTable(rows: ScaleRow[]): string[] {
  const out = [
    '| Names | bulk load | search p50 / p99 (cipgate) | search p50 / p99 (baseline) | 1000-address batch p50 / p99 (cipgate) | batch p50 / p99 (baseline) |',
    '|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const pair = (l: LoadResult) => `${ms(l.p50Ms)} / ${ms(l.p99Ms)}`;
    out.push(
      `| ${f0(r.names)} | ${r.loadSeconds.toFixed(1)} s | ${pair(r.search.server)} | ${pair(r.search.baseline)} | ${pair(r.batch1000.server)} | ${pair(r.batch1000.baseline)} |`,
    );
  }
  return out;
}

export function markdown(report: Report): string {
  const m = report.meta;
  const lines = [
    '# cipgate benchmark report',
    '',
    `Generated by \`npm run bench${m.quick ? ' -- --quick' : ''}\` on ${m.date}: ${m.cpus}, ${m.memory}, Node ${m.node}, commit ${m.commit}.`,
    `Each scenario: ${m.warmupS} s warm-up per side, then ${m.durationS} s measured per side in ${m.slices} slices that alternate between the two (cipgate, baseline, baseline, cipgate, …), the same requests sent to cipgate (\`dist/src/main.js\`) and to the baseline (\`bench/baseline-server.ts\`), both separate processes on 127.0.0.1, driven by autocannon from the bench process; each side pays with its own partner. Ratio = cipgate req/s ÷ baseline req/s. Latencies are of successful answers.`,
    '',
  ];
  for (const db of report.databases) {
    lines.push(
      `## ${db.kind === 'sqlite' ? 'Embedded SQLite (node:sqlite)' : 'PostgreSQL'}: ${f0(db.names)} names`,
      '',
      `CPUs: ${db.placement}.`,
      '',
    );
    lines.push(...scenarioTable(db.scenarios), '');
    const cpu = cpuTable(db.scenarios);
    if (cpu.length) lines.push('CPU time per counted answer, over the measured slices:', '', ...cpu, '');
    const diffs = db.scenarios.filter((s) => s.answerDifference);
    for (const s of diffs) lines.push(`- ${s.title}: answers differ from the baseline at \`${s.answerDifference}\``);
    for (const s of db.scenarios.filter((x) => x.credits)) {
      const c = s.credits as { server: CreditCheck; baseline: CreditCheck };
      lines.push(
        `- ${s.title}: cipgate charged ${f0(c.server.charged)} credits for ${f0(c.server.answers)} counted answers (requests in flight when the run stopped are charged too), ledger ${c.server.consistent ? 'consistent' : '**inconsistent**'}${c.server.writesPerCall !== undefined ? `, **${c.server.writesPerCall.toFixed(3)} ledger writes per paid call**` : ''}; baseline ${f0(c.baseline.charged)} for ${f0(c.baseline.answers)}, ledger ${c.baseline.consistent ? 'consistent' : '**inconsistent**'}${c.baseline.writesPerCall !== undefined ? `, ${c.baseline.writesPerCall.toFixed(3)} writes per call` : ''}.`,
      );
    }
    const baselinePeak = Math.max(0, ...db.scenarios.map((s) => s.baselinePeakRssMiB ?? 0));
    lines.push(
      ...(db.import
        ? [
            `- \`names:import\` (the command, in its own process, reading a file): ${f0(db.import.command.lines)} names into an empty database in ${db.import.command.seconds.toFixed(1)} s = **${f0(db.import.command.namesPerSecond)} names/s** (${db.import.command.wallSeconds.toFixed(1)} s with the process's start; ${usage(db.import.command.process)}). Called in the bench's own process on the same lines in memory (no process start, no file reading): ${db.import.inProcess.seconds.toFixed(1)} s = ${f0(db.import.inProcess.namesPerSecond)} names/s.`,
            ...(db.import.beside
              ? [
                  `- The same command with a process writing beside it every ${db.import.beside.probe.everyMs} ms, as a server would (each write waits up to ${db.import.beside.probe.waitMs} ms for the file's lock, then fails where a server would answer 503): ${db.import.beside.seconds.toFixed(1)} s = ${f0(db.import.beside.namesPerSecond)} names/s (${usage(db.import.beside.process)}); of its ${f0(db.import.beside.probe.writes)} writes **${f0(db.import.beside.probe.failed)} failed**, waiting ${db.import.beside.probe.p50Ms} / ${db.import.beside.probe.p99Ms} / ${db.import.beside.probe.maxMs} ms (median / p99 / longest).`,
                ]
              : []),
          ]
        : []),
      `- Resident memory of the cipgate process: ${db.memory.idleMiB.toFixed(0)} MiB idle after start, ${db.memory.peakMiB.toFixed(0)} MiB peak under load, ${db.memory.afterLoadMiB.toFixed(0)} MiB after the load${baselinePeak ? `; the baseline's peak under the same load: ${baselinePeak.toFixed(0)} MiB` : ''}.`,
      '',
    );
    if (db.scale.length) {
      lines.push(
        `### Scale (${db.kind}): one connection, time per request as the registry grows`,
        '',
        ...scaleTable(db.scale),
        '',
      );
    }
    if (db.searchAtLargest) {
      const s = db.searchAtLargest;
      lines.push(
        `Search under load on ${f0(s.names)} names (${s.connections} connections): ${f0(s.result.rps)} req/s, p50 ${ms(s.result.p50Ms)}, p99 ${ms(s.result.p99Ms)}${db.kind === 'postgresql' ? ` — target p99 < 50 ms ${s.result.p99Ms < 50 ? '✅' : '❌'}` : ''}.`,
        '',
      );
    }
    if (Object.keys(db.plans).length) {
      lines.push('Query plans on the largest registry (the indexes that keep the table flat):', '');
      for (const [what, plan] of Object.entries(db.plans)) lines.push(`- ${what}:`, '', '```', plan, '```', '');
    }
  }
  if (report.notes.length) lines.push('## Notes', '', ...report.notes.map((n) => `- ${n}`), '');
  return `${lines.join('\n')}\n`;
}
