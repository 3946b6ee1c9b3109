import { access } from 'node:fs/promises';
import { type AdminCommand, intFlag, UsageError } from '../../../platform/cli/command.js';
import { DEFAULT_BATCH_SIZE, importNames } from '../registry/import.js';
import { readLines } from '../registry/import-parse.js';

// Rejected lines listed in text mode before the rest are only counted; --json lists them all.
const SHOWN_ERRORS = 50;
// Lines per transaction at most: on PostgreSQL two batches are in memory at once (one written, one
// read); on SQLite a transaction holds the file's write lock (see DEFAULT_BATCH_SIZE), and two windows
// of up to 40 000 lines or one batch are in memory (see SQLITE_WINDOW_BATCHES).
const MAX_BATCH_SIZE = 50_000;
// A terminal redrawn more often than this flickers, and the redraw would cost a fast import time.
const PROGRESS_INTERVAL_MS = 250;

/**
 * What the process used from its start, for sizing a large import: its peak resident memory, the pages
 * it touched first (each one zeroed by the kernel, which can cost a process noticeably) and its CPU time.
 */
function processUsage() {
  const usage = process.resourceUsage();
  return {
    peakMiB: Math.round(usage.maxRSS / 1024),
    pageFaults: usage.minorPageFault,
    userSeconds: Number((usage.userCPUTime / 1e6).toFixed(3)),
    systemSeconds: Number((usage.systemCPUTime / 1e6).toFixed(3)),
  };
}

export const namesImport: AdminCommand = {
  name: 'names:import',
  usage: 'names:import <file.jsonl> [--batch-size <n>] [--json]',
  summary:
    'Upsert MNS names from JSON Lines (one name per line, see src/features/resolution/registry/import.ts); bad lines are reported by number and skipped, and make the exit code 1',
  options: { 'batch-size': { type: 'string' } },
  async run(args, io) {
    const [file, ...extra] = args.positional;
    if (!file || extra.length) throw new UsageError('give exactly one JSON Lines file');
    const batchSize = intFlag(args, 'batch-size', { min: 1 }) ?? DEFAULT_BATCH_SIZE;
    if (batchSize > MAX_BATCH_SIZE) throw new UsageError(`--batch-size must be at most ${MAX_BATCH_SIZE}`);
    try {
      await access(file);
    } catch {
      throw new UsageError(`cannot read "${file}"`);
    }
    // An import's statements write thousands of rows each, inside a transaction: SQLite keeps a statement
    // journal of every page one changes (to undo that statement alone), spilled to a temporary file once
    // it grows, and random owners make it grow large. Kept in memory it costs far less time. The
    // connection is the command's own, so a server's settings are untouched.
    if (io.db.dialect === 'sqlite') await io.db.run('pragma temp_store = memory');
    const started = performance.now();
    const progress = io.progress;
    let shown = Number.NEGATIVE_INFINITY;
    const summary = await importNames(io.db, readLines(file), {
      batchSize,
      onProgress: progress
        ? (done) => {
            const now = performance.now();
            if (now - shown < PROGRESS_INTERVAL_MS) return;
            shown = now;
            const seconds = (now - started) / 1000;
            progress(
              `${done.lines} lines read, ${done.imported} imported (${Math.round(done.imported / seconds)} names/s), ${done.rejected} rejected, ${seconds.toFixed(1)} s`,
            );
          }
        : undefined,
    });
    const seconds = (performance.now() - started) / 1000;
    if (io.json) {
      io.out(JSON.stringify({ file, ...summary, seconds: Number(seconds.toFixed(3)), process: processUsage() }));
    } else {
      for (const e of summary.errors.slice(0, SHOWN_ERRORS)) io.out(`line ${e.line}: ${e.message}`);
      if (summary.errors.length > SHOWN_ERRORS)
        io.out(`… and ${summary.errors.length - SHOWN_ERRORS} more rejected lines (use --json to list all)`);
      io.out(
        `Imported ${summary.imported} of ${summary.lines} names from ${file} in ${seconds.toFixed(1)} s` +
          (summary.rejected ? `; ${summary.rejected} lines rejected.` : '.'),
      );
    }
    // A partial import must not look like a clean one to a script checking the exit code.
    if (summary.rejected) throw new Error(`${summary.rejected} of ${summary.lines} lines were rejected`);
  },
};
