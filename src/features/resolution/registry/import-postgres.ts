import { type PgArrayValue, pgArray } from '../../../platform/db/pg-array.js';
import type { Pending } from './import-plan.js';
import {
  type BatchWriter,
  batchStatements,
  COLUMNS,
  type ImportRun,
  type Statement,
  type StatementsOf,
  UPSERT,
} from './import-write.js';

// The one column of free text outside the JSON ones (names and addresses are validated, timestamps
// written here): its array literal is checked for what JSON would escape differently (see pgArray).
const AVATAR = COLUMNS.indexOf('avatar');
// PostgreSQL types of COLUMNS, in order, for the column-array form below.
const PG_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'boolean',
  'timestamptz',
  'timestamptz',
  'text',
  'text',
  'text',
];
// owner_key travels as NULL where it is the owner as written (an address given in full, lower-case:
// the usual case), which spares sending and reading a 66-character key a row.
const PG_INSERT = `insert into mns_name (${COLUMNS.join(', ')}, updated_at)
  select ${COLUMNS.map((c) => (c === 'owner_key' ? 'coalesce(owner_key, owner)' : c)).join(', ')}, ?::timestamptz
  from unnest(${PG_TYPES.map((t) => `?::${t}[]`).join(', ')}) as line (${COLUMNS.join(', ')}) ${UPSERT}`;
// Rows per PostgreSQL statement: a default batch in one. The twelve arrays are bound parameters, so a
// larger statement costs no more to plan, and fewer statements mean fewer round trips and starts.
const PG_ROWS_PER_STATEMENT = 5000;
// PostgreSQL plans `owner_key in (…thousands of owners)` as a scan of the whole table. A lateral subquery
// with LIMIT 1 (exact: an owner has at most one primary name a network) can only be planned as one index
// probe an owner, whatever the table's statistics say.
// The conditions repeated outside: a row a concurrent writer changed since the snapshot is updated in its
// latest version, and must then still be that owner's primary name to be demoted.
const PG_DEMOTE = `update mns_name set is_primary = false, updated_at = ?
  where ctid = any(array(
    select p.ctid from unnest(?::bpchar[], ?::text[]) as o (owner_key, keep)
    cross join lateral (
      select ctid from mns_name
      where owner_key = o.owner_key and network = ? and is_primary and name is distinct from o.keep limit 1) p))
  and network = ? and is_primary and owner_key = any(?::bpchar[])`;

export const postgresStatements: StatementsOf = (rows, demote, now) => {
  const statements: Statement[] = [];
  for (const [network, { owners, keep }] of demote) {
    const ownerArray = pgArray(owners, true);
    statements.push({
      sql: PG_DEMOTE,
      params: [now, ownerArray, pgArray(keep, true), network, network, ownerArray],
    });
  }
  // PostgreSQL plans a VALUES list of thousands of values far slower than 12 arrays unnested into rows.
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + PG_ROWS_PER_STATEMENT);
    const columns: PgArrayValue[][] = [
      chunk.map((r) => r.name),
      chunk.map((r) => r.network),
      chunk.map((r) => r.parent),
      chunk.map((r) => r.owner),
      chunk.map((r) => (r.ownerKey === r.owner ? null : r.ownerKey)),
      chunk.map((r) => r.resolverAddress),
      chunk.map((r) => r.primary),
      chunk.map((r) => r.registeredAt),
      chunk.map((r) => r.expireAt),
      chunk.map((r) => r.avatar),
      chunk.map((r) => r.txtRecords),
      chunk.map((r) => r.multichainAddresses),
    ];
    statements.push({ sql: PG_INSERT, params: [now, ...columns.map((values, i) => pgArray(values, i !== AVATAR))] });
  }
  return statements;
};

// Lines parsed (a few milliseconds of work) between turns of the event loop while a write is in flight.
const YIELD_EVERY_MASK = 255;
const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Each batch is one transaction, and the next batch is read and validated while one is being written,
 * which hides most of the parsing behind the server's work. Batches are written one after the other, in
 * file order, each (and any line-by-line retry of it) finished before the next starts.
 */
export function postgresWriter(run: ImportRun): BatchWriter {
  let writing: Promise<void> | undefined;
  let inFlight = false;
  const flush = async (current: Pending[]) => {
    if (!current.length) return;
    const now = new Date();
    const statements = batchStatements(postgresStatements, current, now);
    await writing;
    inFlight = true;
    writing = run.write(current, statements, now, postgresStatements).finally(() => {
      inFlight = false;
    });
    // Awaited before the next batch or at the end; until then a failure must not count as unhandled.
    writing.catch(() => {});
  };
  return {
    linesToRead: run.batchSize,
    full: flush,
    // A write in flight sends its next statement only when its answer is handled, which a loop over lines
    // already in memory (or buffered by the stream) would put off until the batch is read.
    due: (lineNumber) => inFlight && (lineNumber & YIELD_EVERY_MASK) === 0,
    between: yieldToIo,
    async finish(last) {
      await flush(last);
      await writing;
    },
  };
}
