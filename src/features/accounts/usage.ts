import type { Database } from '../../platform/db/orm.js';
import { badInput, quoted } from '../../platform/errors.js';
import { startsWithRealDate } from '../../platform/iso-timestamp.js';

export type Granularity = 'day' | 'hour';

export interface UsageRow {
  /** Start of the period (UTC), ISO 8601. */
  period: string;
  operation: string;
  credits: number;
  calls: number;
}

export interface UsageReport {
  from: string;
  to: string;
  granularity: Granularity;
  totalCredits: number;
  periods: UsageRow[];
}

const DAY_MS = 86_400_000;
/** Longest range per granularity, so one call reads a bounded slice of the ledger. */
const MAX_RANGE_MS: Record<Granularity, number> = { day: 366 * DAY_MS, hour: 31 * DAY_MS };

function parseInstant(name: string, value: string | null | undefined, fallback: Date): Date {
  if (value === undefined || value === null || value === '') return fallback;
  // A bare date means its start (UTC), so `from=2026-11-01&to=2026-11-02` covers one day.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime()) || !startsWithRealDate(value)) {
    throw badInput(
      `${name} must be an ISO 8601 date or date-time of a real day (e.g. 2026-11-01 or 2026-11-01T12:00:00Z), got ${quoted(value)}`,
    );
  }
  return date;
}

/** The range a usage request covers: `to` defaults to now, `from` to 30 days (day) or 48 hours (hour) before. */
export function usageRange(
  input: { from?: string | null; to?: string | null; granularity?: string | null },
  now = new Date(),
): { from: Date; to: Date; granularity: Granularity } {
  const granularity = input.granularity ?? 'day';
  if (granularity !== 'day' && granularity !== 'hour') throw badInput('granularity must be day or hour');
  const to = parseInstant('to', input.to, now);
  const from = parseInstant('from', input.from, new Date(to.getTime() - (granularity === 'day' ? 30 : 2) * DAY_MS));
  if (from.getTime() >= to.getTime()) throw badInput('from must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_MS[granularity]) {
    throw badInput(
      `the range is too long for granularity ${granularity}: at most ${granularity === 'day' ? 366 : 31} days`,
    );
  }
  return { from, to, granularity };
}

/**
 * Credits charged to a partner in [from, to), summed per period and operation from the ledger (the
 * source of truth for every charge). Periods start on UTC day or hour boundaries. Days whose raw rows
 * were rolled up (LEDGER_RETENTION_DAYS) count when the day starts in the range, as one period at its
 * start: at hour granularity a rolled-up day's usage shows at its 00:00 hour.
 */
export async function partnerUsage(
  db: Database,
  partnerId: string,
  range: { from: Date; to: Date; granularity: Granularity },
): Promise<UsageReport> {
  // SQLite keeps the ledger's timestamps as ISO text, so a period is a prefix of it.
  const period =
    db.dialect === 'postgresql'
      ? `to_char(date_trunc('${range.granularity}', created_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
      : `substr(created_at, 1, ${range.granularity === 'day' ? 10 : 13})`;
  const rows = await db.query<{ period: string; operation: string; credits: number | string; calls: number | string }>(
    `select ${period} as period, operation, sum(credits) as credits, count(*) as calls
       from ledger_entry
      where partner_id = ? and kind = 'charge' and created_at >= ? and created_at < ?
      group by 1, 2
      order by 1, 2`,
    [partnerId, range.from.toISOString(), range.to.toISOString()],
  );
  const daily = await db.query<{ day: string; operation: string; credits: number | string; calls: number | string }>(
    `select day, operation, credits, count as calls from ledger_daily
      where partner_id = ? and kind = 'charge' and day >= ? and day < ?`,
    [partnerId, firstDayFrom(range.from), firstDayFrom(range.to)],
  );
  const merged = new Map<string, UsageRow>();
  for (const row of [
    ...rows.map((r) => ({ ...r, period: isoPeriod(r.period, range.granularity) })),
    ...daily.map((r) => ({ ...r, period: `${r.day}T00:00:00Z` })),
  ]) {
    const key = `${row.period} ${row.operation}`;
    const sum = merged.get(key) ?? { period: row.period, operation: row.operation, credits: 0, calls: 0 };
    sum.credits += Number(row.credits);
    sum.calls += Number(row.calls);
    merged.set(key, sum);
  }
  const periods = [...merged.values()].sort((a, b) =>
    a.period === b.period ? (a.operation < b.operation ? -1 : 1) : a.period < b.period ? -1 : 1,
  );
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    granularity: range.granularity,
    totalCredits: periods.reduce((sum, row) => sum + row.credits, 0),
    periods,
  };
}

/** The first UTC day (`YYYY-MM-DD`) starting at or after `at`. */
function firstDayFrom(at: Date): string {
  return new Date(Math.ceil(at.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** `2026-11-01` or `2026-11-01T08` (SQLite prefixes) and PostgreSQL's text, all as one ISO form. */
function isoPeriod(value: string, granularity: Granularity): string {
  if (value.endsWith('Z')) return value.replace(/\.\d+Z$/, 'Z');
  return granularity === 'day' ? `${value.slice(0, 10)}T00:00:00Z` : `${value.slice(0, 13)}:00:00Z`;
}
