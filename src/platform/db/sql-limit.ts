/**
 * A LIMIT clause with its count in the SQL text. SQLite lets a bound LIMIT steer its plan, so it marks a
 * statement with `limit ?` for recompiling whenever that parameter is bound: every run of the search's
 * prefix listing was parsed and planned again (one recompile per search, ~5 % of a search's CPU, seen
 * with a uprobe on `sqlite3Reprepare`). With the count written in, each count keeps one prepared
 * statement. Only non-negative safe integers pass, so nothing but digits reaches the SQL.
 */
export function limitClause(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`LIMIT must be a non-negative integer, got ${count}`);
  return `limit ${count}`;
}
