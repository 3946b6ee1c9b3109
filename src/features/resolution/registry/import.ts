import { ImportLineError, parseRow } from './import-parse.js';
import type { Pending } from './import-plan.js';
import { postgresWriter } from './import-postgres.js';
import { sqliteWriter } from './import-sqlite.js';
import { type ImportDatabase, ImportRun, type ImportSummary } from './import-write.js';

/**
 * `names:import` reads JSON Lines, one name per line:
 *
 *   {"name": "alice.snow", "caip2Id": "move-mvmt:126", "owner": "0x…", "resolverAddress": "0x…",
 *    "primary": true, "registeredAt": "2025-01-02T03:04:05Z", "expireAt": "2026-01-02T03:04:05Z",
 *    "avatar": "https://…", "txtRecords": [{"key": "com.twitter", "value": "alice", "type": "social"}],
 *    "multichainAddresses": [{"address": "0x…", "caip2Id": "eip155:1"}]}
 *
 * A line is the complete record of its name on its network: it replaces what was stored (upsert by name
 * and network), so an omitted optional field clears it and an omitted `primary` means not primary.
 * Unknown fields are rejected, so that a misspelt field cannot silently drop data.
 *
 * This file reads the lines; import-parse.ts validates each, import-plan.ts orders a batch's writes,
 * and import-sqlite.ts or import-postgres.ts writes them.
 */
export interface ImportOptions {
  /**
   * Lines per transaction: on PostgreSQL a batch of lines in file order, on SQLite about as many rows of
   * a window in owner order (an owner's rows are never split).
   */
  batchSize?: number;
  /** Called after each written transaction with the lines read so far, for progress output. */
  onProgress?: (summary: ImportSummary) => void;
}

/**
 * Lines per transaction unless told otherwise. Larger transactions write fewer pages on SQLite (a commit
 * writes every page it changed, and real addresses change most pages of the owner index), but hold its
 * file's write lock longer, against the time a running server waits for it (DATABASE_ACQUIRE_TIMEOUT_MS)
 * before answering 503; smaller ones make the import much slower.
 */
export const DEFAULT_BATCH_SIZE = 5000;

/**
 * Imports JSON Lines (see the format above) in batched transactions, the database's writer deciding how
 * (postgresWriter, sqliteWriter). A bad line is skipped and reported.
 */
export async function importNames(
  db: ImportDatabase,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const run = new ImportRun(db, options.batchSize ?? DEFAULT_BATCH_SIZE, options.onProgress);
  const { summary } = run;
  const writer = db.dialect === 'postgresql' ? postgresWriter(run) : sqliteWriter(run);
  const { linesToRead, due, between } = writer;

  let batch: Pending[] = [];
  let lineNumber = 0;
  /** Reads one line into the batch; true when the batch is then full. */
  const take = (raw: string): boolean => {
    lineNumber += 1;
    // A byte-order mark some editors write at the start of a file is not part of the JSON.
    const text = (lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') return false;
    summary.lines += 1;
    try {
      batch.push({ line: lineNumber, row: parseRow(text) });
    } catch (err) {
      if (!(err instanceof ImportLineError)) throw err;
      run.reject(lineNumber, err.message);
      return false;
    }
    return batch.length >= linesToRead;
  };
  const full = () => {
    const taken = batch;
    batch = [];
    return writer.full(taken);
  };
  if (isAsyncIterable(lines)) {
    for await (const raw of lines) {
      if (take(raw)) await full();
      else if (due(lineNumber)) await between();
    }
  } else {
    // Not `for await`: that would wait a promise a line.
    for (const raw of lines) {
      if (take(raw)) await full();
      else if (due(lineNumber)) await between();
    }
  }
  await writer.finish(batch);
  summary.errors.sort((a, b) => a.line - b.line);
  return summary;
}

const isAsyncIterable = (lines: AsyncIterable<string> | Iterable<string>): lines is AsyncIterable<string> =>
  Symbol.asyncIterator in lines;
