import { setTimeout as sleep } from 'node:timers/promises';
import { type Pending, type Slice, windowSlices } from './import-plan.js';
import {
  type BatchWriter,
  batchStatements,
  COLUMNS,
  type ImportRun,
  type Statement,
  type StatementsOf,
  UPSERT,
  writeStatements,
} from './import-write.js';

// Rows per SQLite statement: the batch's time once, then 1 250 rows of 12 values keeps a statement's
// value array under the size at which the engine gives an array memory of its own (fresh pages for every
// statement). Every row names the time as ?1 (an unnumbered ? takes the number after the largest used)
// rather than binding the same value once a row.
const SQLITE_ROWS_PER_STATEMENT = 1250;
const SQLITE_ROW = `(?1, ${COLUMNS.map(() => '?').join(', ')})`;
const sqliteInsert = (rows: number): string =>
  `insert into mns_name (updated_at, ${COLUMNS.join(', ')}) values ${Array.from({ length: rows }, () => SQLITE_ROW).join(', ')} ${UPSERT}`;
const SQLITE_FULL_INSERT = sqliteInsert(SQLITE_ROWS_PER_STATEMENT);
// SQLite takes the owners as one JSON object, each owner a key (owners are unique within a network's
// demotion) and the name it keeps its value, each owner probed in the same index: one bound value rather
// than one an owner (slower to bind, and bounded by the values a statement holds), and unlike an array
// of [owner, keep] pairs, no parse of each pair for each `->>`.
const SQLITE_DEMOTE = `update mns_name set is_primary = false, updated_at = ? where rowid in (
  select m.rowid from json_each(?) as o
  join mns_name m on m.owner_key = o.key and m.network = ? and m.is_primary
  where m.name is not o.value)`;

export const sqliteStatements: StatementsOf = (rows, demote, now) => {
  const statements: Statement[] = [];
  for (const [network, { owners, keep }] of demote) {
    let keeps = '{';
    for (let i = 0; i < owners.length; i++)
      keeps += `${i ? ',' : ''}${JSON.stringify(owners[i])}:${JSON.stringify(keep[i] ?? null)}`;
    statements.push({ sql: SQLITE_DEMOTE, params: [now, `${keeps}}`, network] });
  }
  for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + SQLITE_ROWS_PER_STATEMENT);
    const params = new Array<unknown>(1 + chunk.length * COLUMNS.length);
    params[0] = now;
    let i = 1;
    for (const r of chunk) {
      params[i++] = r.name;
      params[i++] = r.network;
      params[i++] = r.parent;
      params[i++] = r.owner;
      params[i++] = r.ownerKey;
      params[i++] = r.resolverAddress;
      // As SQLite stores it: a boolean would make the database handle copy the values to convert it.
      params[i++] = r.primary ? 1 : 0;
      params[i++] = r.registeredAt;
      params[i++] = r.expireAt;
      params[i++] = r.avatar;
      params[i++] = r.txtRecords;
      params[i++] = r.multichainAddresses;
    }
    statements.push({
      sql: chunk.length === SQLITE_ROWS_PER_STATEMENT ? SQLITE_FULL_INSERT : sqliteInsert(chunk.length),
      params,
    });
  }
  return statements;
};

/**
 * A window holds this many batches, up to SQLITE_WINDOW_LINES lines unless a batch alone is larger.
 * Larger windows write faster and keep a running server's writes waiting less; their rows stay in memory
 * until the window's last slice is written, two windows at a time.
 */
const SQLITE_WINDOW_BATCHES = 8;
const SQLITE_WINDOW_LINES = 40_000;

/**
 * At the end, where no lines are left to read between two slices, how long the lock is left free after a
 * slice that held it `heldMs`: long enough that a server's write which began waiting during the slice
 * tries again inside the gap, and finds the lock free as it does while lines are read.
 *
 * SQLite's busy handler (`busy_timeout`) sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 ms and then
 * 100 ms between tries, so a write that has waited `w` ms tries again within `w + 2` ms, and within 25 ms
 * while `w` is under 128 ms (50 under 228). A write that began during the slice has waited at most
 * `heldMs`; a longer gap would only idle the import.
 */
export function gapAfterSlice(heldMs: number): number {
  const retryWithin = heldMs < 128 ? 25 : heldMs < 228 ? 50 : 100;
  return Math.ceil(Math.min(heldMs, retryWithin)) + 2;
}

/** A slice whose statements may be built before its turn (at the end, while the lock is left free). */
interface WindowSlice extends Slice {
  statements?: Statement[];
}

/**
 * A commit writes every page its transaction changed, twice (to the log, then the file), and real
 * addresses are hashes that land a batch's rows on most pages of the owner index. So lines are read in
 * windows of SQLITE_WINDOW_BATCHES batches, applied in file order and written in owner order
 * (windowSlices), a batch's worth of rows a transaction: each transaction changes a narrow range of the
 * index. A window's transactions go one after each batch of the next window is read, so the file's write
 * lock is free while lines are parsed. A reader can see a window half written, some owners' names new
 * and others old; each owner's primary name is always the window's or the stored one. If the database
 * refuses a transaction, the whole window is written again a batch at a time in file order, which ends
 * as if no slice had been written (every row it wrote is rewritten, every demotion made again), and then
 * retried line by line where refused.
 *
 * SQLite writes on this thread, so reading on beside a write gains nothing and would hold the write lock
 * while lines are read; parsing with the lock free is what lets a running server's writes in. (A writer
 * thread keeping the next batch ready was faster alone, but slower beside a server, which it left the
 * lock only between transactions.)
 */
export function sqliteWriter(run: ImportRun): BatchWriter {
  const { db, batchSize, summary } = run;
  // The last window read, its slices still to write, and the lines its written slices stood for.
  let window: { items: Pending[]; now: Date; slices: WindowSlice[]; imported: number } | undefined;
  // Lines read when the last slice was written: a slice is due after each batch's worth of lines.
  let linesAtSlice = 0;
  const writeSlice = async (): Promise<number> => {
    const current = window as NonNullable<typeof window>;
    const slice = current.slices.shift() as WindowSlice;
    linesAtSlice = summary.lines;
    const started = performance.now();
    try {
      await writeStatements(
        db,
        slice.statements ?? sqliteStatements(slice.rows, slice.demote, current.now.toISOString()),
      );
    } catch {
      current.slices = [];
      summary.imported -= current.imported;
      for (let start = 0; start < current.items.length; start += batchSize) {
        const items = current.items.slice(start, start + batchSize);
        await run.write(items, batchStatements(sqliteStatements, items, current.now), current.now, sqliteStatements);
      }
      return 0;
    }
    summary.imported += slice.lines;
    current.imported += slice.lines;
    run.progress();
    return performance.now() - started;
  };
  /** Writes what is left of the last window, then makes `items` (when there are any) the next one. */
  const nextWindow = async (items: Pending[]) => {
    while (window?.slices.length) await writeSlice();
    if (!items.length) return;
    window = { items, now: new Date(), slices: windowSlices(items, batchSize), imported: 0 };
  };
  return {
    linesToRead: Math.max(batchSize, Math.min(batchSize * SQLITE_WINDOW_BATCHES, SQLITE_WINDOW_LINES)),
    full: nextWindow,
    due: () => summary.lines - linesAtSlice >= batchSize && window !== undefined && window.slices.length > 0,
    between: writeSlice,
    async finish(last) {
      let rest = last;
      const lastWindow = async () => {
        await nextWindow(rest);
        rest = [];
      };
      // No lines are left to read between two slices: the lock is left free after each (gapAfterSlice),
      // and what is left to do before the next slice (the last lines' window, the slice's statements) is
      // done meanwhile, not after the gap.
      if (!window?.slices.length) await lastWindow();
      while (window?.slices.length) {
        const heldMs = await writeSlice();
        if (!window.slices.length && !rest.length) break;
        const free = performance.now() + gapAfterSlice(heldMs);
        if (!window.slices.length) await lastWindow();
        const next = window.slices[0];
        if (next) next.statements = sqliteStatements(next.rows, next.demote, window.now.toISOString());
        await sleep(Math.max(0, free - performance.now()));
      }
    },
  };
}
