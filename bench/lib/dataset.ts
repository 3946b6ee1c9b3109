import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPartner } from '../../src/features/accounts/partners.js';
import { importNames } from '../../src/features/resolution/registry/import.js';
import { type Database, openDatabase } from '../../src/platform/db/orm.js';
import type { LockProbe } from './lock-probe.js';
import { scriptNodeArgs } from './processes.js';

/**
 * The bench's synthetic MNS registry. Name `i` is `u<i, 7 digits>.snow`, so a 6-digit prefix such as
 * `u000123` matches exactly ten names at every registry size from 10k to 1M: search results stay the
 * same size while the table grows, and only the index's behaviour can change the timing.
 *
 * The same formulas exist twice, in JavaScript (for the importer and for building requests) and in SQL
 * (for the bulk loader); `checkDataset` proves they agree on every run.
 */
export const DIGITS = 7;
export const label = (i: number): string => `u${String(i).padStart(DIGITS, '0')}`;
export const nameOf = (i: number): string => `${label(i)}.snow`;
/**
 * Owner `i` is eight 32-bit multiplicative hashes of `i`, as 64 hex digits: spread over the key space
 * in random order, as real addresses (hashes) are. The first is a bijection (an odd multiplier modulo
 * 2^32), so owners are unique. Owners that rise with `i` would make every import append to the owner
 * indexes' last pages, which flatters `names:import` on SQLite.
 */
const OWNER_MULTIPLIERS = [
  2654435761, 2246822519, 3266489917, 668265263, 374761393, 1181783497, 2024237689, 3323198485,
];
// i * multiplier + k stays below 2^53 (exact as a JavaScript number) for every index the bench uses.
const MAX_INDEX = 2 ** 21;
const ownerChunk = (i: number, k: number): string =>
  ((i * (OWNER_MULTIPLIERS[k] as number) + k) % 4294967296).toString(16).padStart(8, '0');
export const ownerOf = (i: number): string => {
  if (!Number.isInteger(i) || i < 0 || i >= MAX_INDEX) throw new RangeError(`bench owner index ${i} out of range`);
  return `0x${OWNER_MULTIPLIERS.map((_, k) => ownerChunk(i, k)).join('')}`;
};
/** The same owner in SQL, `hex8` turning an integer below 2^32 into 8 hex digits in the dialect. */
const ownerSql = (i: string, hex8: (value: string) => string): string =>
  `'0x' || ${OWNER_MULTIPLIERS.map((m, k) => hex8(`(${i} * ${m} + ${k}) % 4294967296`)).join(' || ')}`;
/** Every tenth name (i % 10 == 5) also exists on testnet; every 50th (i % 50 == 7) has expired. */
export const onTestnet = (i: number): boolean => i % 10 === 5;
export const expired = (i: number): boolean => i % 50 === 7;
const REGISTERED = '2025-01-01T00:00:00.000Z';
const EXPIRED_AT = '2020-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';
const expireOf = (i: number): string | null => (expired(i) ? EXPIRED_AT : i % 4 === 0 ? FUTURE : null);
const avatarOf = (i: number): string | null => (i % 3 === 0 ? `https://example.com/avatar/${label(i)}.png` : null);

/** Lines for `names:import`: the first names go through the real importer, the bulk through SQL. */
function importLines(from: number, to: number): string[] {
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    const owner = ownerOf(i);
    const base = {
      name: nameOf(i),
      owner,
      primary: true,
      registeredAt: REGISTERED,
      expireAt: expireOf(i),
      avatar: avatarOf(i),
      txtRecords: [{ key: 'com.twitter', value: label(i), type: 'social' }],
      multichainAddresses: [{ address: `0x${owner.slice(-40)}`, caip2Id: 'eip155:1' }],
    };
    lines.push(JSON.stringify({ ...base, caip2Id: 'move-mvmt:126' }));
    if (onTestnet(i)) lines.push(JSON.stringify({ ...base, caip2Id: 'move-mvmt:177' }));
  }
  return lines;
}

/** The bulk loader's INSERT … SELECT for names [from, to) on one dialect. */
function bulkInsertSql(dialect: Database['dialect'], from: number, to: number): string {
  const columns =
    'name, network, parent, owner, owner_key, resolver_address, is_primary, registered_at, expire_at, avatar, txt_records, multichain_addresses, updated_at';
  if (dialect === 'postgresql') {
    const owner = ownerSql('i::bigint', (v) => `lpad(to_hex(${v}), 8, '0')`);
    const lbl = `'u' || lpad(i::text, ${DIGITS}, '0')`;
    return `insert into mns_name (${columns})
      select ${lbl} || '.snow', net, null, ${owner}, ${owner}, null, true, '${REGISTERED}'::timestamptz,
        case when i % 50 = 7 then '${EXPIRED_AT}'::timestamptz when i % 4 = 0 then '${FUTURE}'::timestamptz end,
        case when i % 3 = 0 then 'https://example.com/avatar/' || ${lbl} || '.png' end,
        '[{"key":"com.twitter","value":"' || ${lbl} || '","type":"social"}]',
        '[{"address":"0x' || right(${owner}, 40) || '","caip2Id":"eip155:1"}]', now()
      from generate_series(${from}, ${to - 1}) as i
      cross join lateral (select '126' as net union all select '177' where i % 10 = 5) n`;
  }
  const owner = ownerSql('i', (v) => `printf('%08x', ${v})`);
  const lbl = `'u' || printf('%0${DIGITS}d', i)`;
  return `with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to - 1}),
      n(net) as (values ('126'), ('177'))
    insert into mns_name (${columns})
      select ${lbl} || '.snow', net, null, ${owner}, ${owner}, null, 1, '${REGISTERED}',
        case when i % 50 = 7 then '${EXPIRED_AT}' when i % 4 = 0 then '${FUTURE}' end,
        case when i % 3 = 0 then 'https://example.com/avatar/' || ${lbl} || '.png' end,
        '[{"key":"com.twitter","value":"' || ${lbl} || '","type":"social"}]',
        '[{"address":"0x' || substr(${owner}, -40) || '","caip2Id":"eip155:1"}]', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      from s cross join n where net = '126' or i % 10 = 5`;
}

/** Names loaded through the real `names:import` code path before the bulk SQL takes over. */
const IMPORTED = 1000;

export interface BenchDatabase {
  kind: 'sqlite' | 'postgresql';
  url: string;
  db: Database;
  /** The bench partner's key: enough credits for every paid request of the run. */
  apiKey: string;
  partnerId: string;
  /**
   * The baseline's own partner with the same grant: the two servers' slices of a scenario alternate, so
   * each side's charges are told apart by whose books they land in.
   */
  baselineApiKey: string;
  baselinePartnerId: string;
  size: number;
  /** Grows the registry to `to` names; returns the seconds it took. */
  grow(to: number): Promise<number>;
  drop(): Promise<void>;
}

export const BENCH_CREDITS = 1_000_000_000;

/** A fresh database of `kind` with the service's schema (its own migrations), a partner and `size` names. */
export async function createBenchDatabase(
  kind: 'sqlite' | 'postgresql',
  adminUrl: string,
  size: number,
): Promise<BenchDatabase> {
  let url: string;
  let cleanup: () => Promise<void>;
  if (kind === 'postgresql') {
    const name = `cipgate_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    cleanup = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'cipgate-bench-'));
    url = `file:${join(dir, 'bench.db')}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const db = await openDatabase(url);
  const { partner, key } = await createPartner(db, {
    name: 'Bench partner',
    email: 'bench@example.com',
    credits: BENCH_CREDITS,
  });
  const theirs = await createPartner(db, {
    name: 'Bench baseline partner',
    email: 'bench-baseline@example.com',
    credits: BENCH_CREDITS,
  });
  const summary = await importNames(db, importLines(0, Math.min(IMPORTED, size)));
  if (summary.rejected)
    throw new Error(`bench names rejected by the importer: ${JSON.stringify(summary.errors.slice(0, 3))}`);

  const bench: BenchDatabase = {
    kind,
    url,
    db,
    apiKey: key.apiKey,
    partnerId: partner.id,
    baselineApiKey: theirs.key.apiKey,
    baselinePartnerId: theirs.partner.id,
    size: Math.min(IMPORTED, size),
    async grow(to) {
      const started = performance.now();
      // Chunks keep each statement's memory bounded (SQLite's recursive CTE materialises nothing, but
      // one 1M-row PostgreSQL statement holds its whole insert in one transaction's WAL).
      const CHUNK = 250_000;
      // The secondary indexes are dropped for the load and built again after it, as bulk loads are
      // done: inserted into one by one, the owner indexes (random keys) took 40–44 s to grow to 1M names.
      const indexes = await secondaryIndexes(db);
      for (const { type, name } of indexes) await db.run(`drop ${type} ${name}`);
      for (let from = bench.size; from < to; from += CHUNK) {
        await db.run(bulkInsertSql(db.dialect, from, Math.min(to, from + CHUNK)));
      }
      for (const { sql } of indexes) await db.run(sql);
      // Fresh statistics and (PostgreSQL) a visibility map, as autovacuum gives a while after a bulk load:
      // plans must not depend on stale counts, and index-only scans need the map.
      await db.run(db.dialect === 'postgresql' ? 'vacuum analyze mns_name' : 'analyze');
      bench.size = Math.max(bench.size, to);
      return (performance.now() - started) / 1000;
    },
    async drop() {
      await db.close();
      await cleanup();
    },
  };
  if (size > IMPORTED) await bench.grow(size);
  await checkDataset(bench);
  return bench;
}

/**
 * The registry's indexes but its primary key, each with the statement that creates it (its migration's),
 * and on SQLite its triggers, which check each row against an index (migration 0014) and would scan
 * the table without it. The loader's rows are unique by construction.
 */
async function secondaryIndexes(db: Database): Promise<{ type: string; name: string; sql: string }[]> {
  const rows =
    db.dialect === 'postgresql'
      ? await db.query<{ type: string; name: string; sql: string }>(
          `select 'index' as type, indexname as name, indexdef as sql from pg_indexes where tablename = 'mns_name' and indexname <> 'mns_name_pkey'`,
        )
      : await db.query<{ type: string; name: string; sql: string }>(
          `select type, name, sql from sqlite_master where type in ('index', 'trigger') and tbl_name = 'mns_name' and sql is not null order by type, rowid`,
        );
  if (rows.length < 2) throw new Error(`bench dataset: expected the registry's indexes, found ${rows.length}`);
  return rows;
}

/** The SQL loader must write exactly what the importer writes: compare a generated row with an imported one. */
async function checkDataset(bench: BenchDatabase): Promise<void> {
  const columns = 'name, network, owner, owner_key, is_primary, expire_at, avatar, txt_records, multichain_addresses';
  for (const i of [IMPORTED - 3, IMPORTED + 7, IMPORTED + 15]) {
    if (i >= bench.size) continue;
    const [row] = await bench.db.query<Record<string, unknown>>(
      `select ${columns} from mns_name where name = ? and network = '126'`,
      [nameOf(i)],
    );
    if (!row) throw new Error(`bench dataset: ${nameOf(i)} is missing`);
    const owner = ownerOf(i);
    const expireAt =
      row.expire_at === null
        ? null
        : new Date(String(row.expire_at instanceof Date ? row.expire_at.toISOString() : row.expire_at)).toISOString();
    const problems = [
      row.owner !== owner && `owner ${row.owner} != ${owner}`,
      row.owner_key !== owner && 'owner_key',
      expireAt !== expireOf(i) && `expire_at ${expireAt} != ${expireOf(i)}`,
      (row.avatar ?? null) !== avatarOf(i) && 'avatar',
      JSON.stringify(JSON.parse(String(row.txt_records))) !==
        JSON.stringify([{ key: 'com.twitter', value: label(i), type: 'social' }]) && `txt_records ${row.txt_records}`,
      JSON.stringify(JSON.parse(String(row.multichain_addresses))) !==
        JSON.stringify([{ address: `0x${owner.slice(-40)}`, caip2Id: 'eip155:1' }]) && 'multichain_addresses',
    ].filter(Boolean);
    if (problems.length) throw new Error(`bench dataset row ${i} differs from the importer's: ${problems.join('; ')}`);
  }
}

/** What one import took: `seconds` as the importer timed itself, `namesPerSecond` from it. */
export interface ImportTiming {
  lines: number;
  seconds: number;
  namesPerSecond: number;
}

/** The command's own account of its process (names:import --json), start-up included. */
export interface ImportProcess {
  peakMiB: number;
  pageFaults: number;
  userSeconds: number;
  systemSeconds: number;
}

type CommandTiming = ImportTiming & { wallSeconds: number; process: ImportProcess };

/** The timings of one import benchmark (see importSpeed). */
export interface ImportSpeed {
  command: CommandTiming;
  inProcess: ImportTiming;
  /** SQLite: the command again, with a server's writes beside it (lock-probe.ts). */
  beside?: CommandTiming & { probe: LockProbe };
}

const timing = (imported: number, seconds: number): ImportTiming => ({
  lines: imported,
  seconds,
  namesPerSecond: imported / seconds,
});

/** The admin CLI as built beside the bench (dist/bench/lib → dist/src/admin.js). */
const ADMIN_CLI = fileURLToPath(new URL('../../src/admin.js', import.meta.url));
const LOCK_PROBE = fileURLToPath(new URL('./lock-probe.js', import.meta.url));

/**
 * `names:import` speed: `count` fresh names (the bench's lines, each with a txt record and a multichain
 * address, 10 % also on testnet) imported into an empty database of `kind`, twice:
 *
 * - `command`: the command an operator runs, `names:import <file> --json` in its own Node process (the
 *   bench's Node, with `npm run admin`'s V8 flags) reading a file of those lines; its own timing, from
 *   reading the file's first line to the last commit, without the process's start and migration check
 *   (`wallSeconds` has them).
 * - `inProcess`: `importNames` called from the bench's own process on the same lines held in memory,
 *   kept so runs stay comparable with results that measured only this.
 * - `beside` (SQLite): the command again while lock-probe.ts writes beside it as a running server would,
 *   which shows whether the importer leaves the file's single write lock to others often enough.
 *
 * The two agree when run alone; in a full run, after the load phases, the first of them can read lower.
 */
export async function importSpeed(
  kind: 'sqlite' | 'postgresql',
  adminUrl: string,
  count: number,
): Promise<ImportSpeed> {
  const lines = importLines(0, count);
  const dir = mkdtempSync(join(tmpdir(), 'cipgate-import-'));
  try {
    const file = join(dir, 'names.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const command = await withEmptyDatabase(kind, adminUrl, async (bench) => importCommand(bench, file));
    const beside =
      kind === 'sqlite'
        ? await withEmptyDatabase(kind, adminUrl, async (bench) => {
            const probe = spawn(process.execPath, [LOCK_PROBE, bench.url.slice('file:'.length)], {
              stdio: ['pipe', 'pipe', 'inherit'],
            });
            let out = '';
            const closed = once(probe, 'close');
            // Writing before the import starts: its first line says so.
            const ready = new Promise<void>((resolve) => {
              probe.stdout.on('data', (chunk: Buffer) => {
                out += chunk.toString();
                if (out.includes('\n')) resolve();
              });
              void closed.then(() => resolve());
            });
            let command: Awaited<ReturnType<typeof importCommand>>;
            try {
              await ready;
              if (probe.exitCode !== null) throw new Error(`lock probe exited ${probe.exitCode}`);
              command = importCommand(bench, file);
            } finally {
              probe.stdin.end();
              await closed;
            }
            return { ...command, probe: JSON.parse(out.trim().split('\n').at(-1) as string) as LockProbe };
          })
        : undefined;
    const inProcess = await withEmptyDatabase(kind, adminUrl, async (bench) => {
      const started = performance.now();
      const summary = await importNames(bench.db, lines);
      const seconds = (performance.now() - started) / 1000;
      if (summary.rejected) throw new Error(`import benchmark: ${summary.rejected} lines rejected`);
      return timing(summary.imported, seconds);
    });
    return { command, inProcess, ...(beside ? { beside } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `names:import <file> --json` into the bench database, in its own process, with its own timing. */
function importCommand(bench: BenchDatabase, file: string): CommandTiming {
  const started = performance.now();
  const { stdout, stderr, status } = spawnSync(
    process.execPath,
    [...scriptNodeArgs('admin'), ADMIN_CLI, 'names:import', file, '--json'],
    {
      env: { ...process.env, DATABASE_URL: bench.url },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const wallSeconds = (performance.now() - started) / 1000;
  if (status !== 0) throw new Error(`names:import exited ${status}: ${stderr.slice(-2000)}`);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1) as string) as {
    imported: number;
    rejected: number;
    seconds: number;
    process: ImportProcess;
  };
  if (summary.rejected) throw new Error(`import benchmark: ${summary.rejected} lines rejected`);
  return { ...timing(summary.imported, summary.seconds), wallSeconds, process: summary.process };
}

async function withEmptyDatabase<T>(
  kind: 'sqlite' | 'postgresql',
  adminUrl: string,
  run: (bench: BenchDatabase) => Promise<T>,
): Promise<T> {
  const bench = await createBenchDatabase(kind, adminUrl, 0);
  try {
    return await run(bench);
  } finally {
    await bench.drop();
  }
}
