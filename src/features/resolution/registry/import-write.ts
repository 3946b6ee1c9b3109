import type { Database } from '../../../platform/db/orm.js';
import type { ImportRow } from './import-parse.js';
import { applyInOrder, type Demotion, type Pending } from './import-plan.js';
import type { MnsNetwork } from './networks.js';

// What the SQLite and PostgreSQL writers of `names:import` share: the columns they write, the
// transaction, the line-by-line retry of a refused one, and the summary they fill.

export interface ImportSummary {
  /** Non-blank lines read. */
  lines: number;
  imported: number;
  rejected: number;
  /** Every rejected line, by its 1-based line number in the file. */
  errors: { line: number; message: string }[];
}

/** The database the import writes to; its dialect picks the statement form. */
export type ImportDatabase = Pick<Database, 'transaction'> & Partial<Pick<Database, 'dialect'>>;

/** The statements that write one batch, in order: built before the previous batch's write is awaited. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** One database's statements for `rows` after `demote`'s demotions, stamped `now`. */
export type StatementsOf = (
  rows: readonly ImportRow[],
  demote: ReadonlyMap<MnsNetwork, Demotion>,
  now: string,
) => Statement[];

// The columns a line sets, in the order the statements bind them; updated_at is the batch's time.
export const COLUMNS = [
  'name',
  'network',
  'parent',
  'owner',
  'owner_key',
  'resolver_address',
  'is_primary',
  'registered_at',
  'expire_at',
  'avatar',
  'txt_records',
  'multichain_addresses',
] as const;
export const UPSERT = `on conflict (name, network) do update set ${[...COLUMNS, 'updated_at']
  .filter((c) => c !== 'name' && c !== 'network')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ')}, source = 'import'`;

/** A batch's lines applied in file order (applyInOrder), as `statementsOf` writes them. */
export function batchStatements(statementsOf: StatementsOf, batch: readonly Pending[], at: Date): Statement[] {
  const { rows, demote } = applyInOrder(batch);
  return statementsOf(
    rows.map((r) => r.row),
    demote,
    at.toISOString(),
  );
}

export async function writeStatements(db: ImportDatabase, statements: readonly Statement[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const { sql, params } of statements) await tx.run(sql, params);
  });
}

/** One import's database, batch size and summary, shared by the reading loop (import.ts) and a writer. */
export class ImportRun {
  readonly summary: ImportSummary = { lines: 0, imported: 0, rejected: 0, errors: [] };

  constructor(
    readonly db: ImportDatabase,
    readonly batchSize: number,
    private readonly onProgress: ((summary: ImportSummary) => void) | undefined,
  ) {}

  reject(line: number, message: string): void {
    this.summary.rejected += 1;
    this.summary.errors.push({ line, message });
  }

  progress(): void {
    this.onProgress?.(this.summary);
  }

  /**
   * Writes `current`'s statements as one transaction. Validation passed, so a refusal is the database's
   * (a value too long for a column, say): the lines are then retried one by one, so that only the lines
   * it refuses are lost, each reported.
   */
  async write(current: readonly Pending[], statements: Statement[], now: Date, statementsOf: StatementsOf) {
    try {
      await writeStatements(this.db, statements);
      this.summary.imported += current.length;
    } catch (err) {
      if (current.length === 1) {
        this.reject((current[0] as Pending).line, `not written: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        for (const item of current) {
          try {
            await writeStatements(this.db, batchStatements(statementsOf, [item], now));
            this.summary.imported += 1;
          } catch (lineErr) {
            this.reject(item.line, `not written: ${lineErr instanceof Error ? lineErr.message : String(lineErr)}`);
          }
        }
      }
    }
    this.progress();
  }
}

/** How one database's writer takes the lines the reading loop (import.ts) parses. */
export interface BatchWriter {
  /** Lines read before they are handed to `full`. */
  readonly linesToRead: number;
  /** Takes `linesToRead` parsed lines (the array is the writer's from then on). */
  full(batch: Pending[]): Promise<void>;
  /** Asked after each line that does not fill the batch, with its number: whether `between` is due. */
  due(lineNumber: number): boolean;
  /** Work done between two lines. */
  between(): Promise<unknown>;
  /** Takes the last lines (maybe none) and finishes every write. */
  finish(last: Pending[]): Promise<void>;
}
