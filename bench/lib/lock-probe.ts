// A running server's writes beside `names:import` on the embedded database (importSpeed): one small
// transaction every 10 ms on its own connection, waiting for the file's lock as a serving process does
// (DATABASE_ACQUIRE_TIMEOUT_MS, 800 ms by default) and failing with SQLITE_BUSY past that, where the
// server would answer 503. It prints a line once its connection is ready, writes until its stdin closes,
// then prints what it saw as one JSON line.
//
// Usage: node dist/bench/lib/lock-probe.js <sqlite file>
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the probe prints last. */
export interface LockProbe {
  /** The pause between two writes, and how long each waits for the lock. */
  everyMs: number;
  waitMs: number;
  writes: number;
  /** Writes that gave up waiting for the lock (a serving process would have answered 503). */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const ACQUIRE_TIMEOUT_MS = 800;
const EVERY_MS = 10;

const path = process.argv[2];
if (path) {
  const db = new DatabaseSync(path, { timeout: ACQUIRE_TIMEOUT_MS });
  db.exec('pragma synchronous = normal');
  db.exec('create table if not exists bench_lock_probe (id integer primary key, at real not null)');
  const insert = db.prepare('insert into bench_lock_probe (at) values (?)');
  process.stdout.write('writing\n');
  let stopped = false;
  process.stdin.on('end', () => {
    stopped = true;
  });
  process.stdin.resume();
  const waits: number[] = [];
  let failed = 0;
  while (!stopped) {
    const started = performance.now();
    try {
      db.exec('begin immediate');
      insert.run(started);
      db.exec('commit');
    } catch {
      failed += 1;
      if (db.isTransaction) db.exec('rollback');
    }
    waits.push(performance.now() - started);
    await sleep(EVERY_MS);
  }
  db.close();
  waits.sort((a, b) => a - b);
  const at = (q: number) => Number((waits[Math.min(waits.length - 1, Math.floor(q * waits.length))] ?? 0).toFixed(1));
  const probe: LockProbe = {
    everyMs: EVERY_MS,
    waitMs: ACQUIRE_TIMEOUT_MS,
    writes: waits.length,
    failed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: at(1),
  };
  process.stdout.write(`${JSON.stringify(probe)}\n`);
}
