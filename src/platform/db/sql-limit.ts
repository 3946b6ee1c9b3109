/**
 * A LIMIT clause with its count in the SQL text. SQLite lets a bound LIMIT steer its plan, so it marks a
 * statement with `limit ?` for recompiling whenever that parameter is bound: every run of the search's
 * prefix listing would be parsed and planned again. With the count written in, each count keeps one
 * prepared statement. Only non-negative safe integers pass, so nothing but digits reaches the SQL.
 */
export function limitClause(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`LIMIT must be a non-negative integer, got ${count}`);
  return `limit ${count}`;
}
