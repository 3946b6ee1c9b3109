import type { Database } from '../db/orm.js';

const DAY_MS = 86_400_000;
// Any constant shared by every cipgate process on one database ("cipr" in ASCII).
const ROLLUP_LOCK = 0x63697072;

/** Start (UTC) of the first day whose raw ledger rows are kept: `retentionDays` whole days before today. */
export function retentionCutoff(retentionDays: number, now = new Date()): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - retentionDays * DAY_MS);
}

/**
 * Moves raw ledger rows created before `cutoff` into `ledger_daily` (summed per partner, UTC day, kind
 * and operation) and deletes them, one day per transaction, so the sum over both tables never changes.
 * Any number of processes may run it at once: on PostgreSQL a transaction-scoped advisory lock makes
 * them take turns, and each statement then sees what the previous turn deleted; SQLite has one writer.
 * Returns how many raw rows were rolled up.
 */
export async function rollUpLedger(db: Database, cutoff: Date): Promise<number> {
  const day =
    db.dialect === 'postgresql' ? `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')` : 'substr(created_at, 1, 10)';
  let rolledUp = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      if (db.dialect === 'postgresql') await tx.query(`select pg_advisory_xact_lock(${ROLLUP_LOCK})`);
      const [oldest] = await tx.query<{ day: string | null }>(
        `select ${day} as day from ledger_entry where created_at < ? order by created_at limit 1`,
        [cutoff],
      );
      if (!oldest?.day) return 0;
      // The oldest day's rows, or fewer when the cutoff falls inside that day.
      const end = new Date(Math.min(cutoff.getTime(), Date.parse(`${oldest.day}T00:00:00Z`) + DAY_MS));
      await tx.run(
        `insert into ledger_daily (partner_id, day, kind, operation, credits, count)
         select partner_id, ${day}, kind, operation, sum(credits), count(*)
           from ledger_entry where created_at < ?
          group by partner_id, ${day}, kind, operation
         on conflict (partner_id, day, kind, operation)
         do update set credits = ledger_daily.credits + excluded.credits, count = ledger_daily.count + excluded.count`,
        [end],
      );
      return tx.run('delete from ledger_entry where created_at < ?', [end]);
    });
    if (!moved) return rolledUp;
    rolledUp += moved;
  }
}
