/**
 * The smallest string greater than every string starting with `prefix`, for an index range scan
 * (`name >= prefix and name < upper`). Both databases compare the name column bytewise (SQLite's
 * BINARY, PostgreSQL's "C" collation), and UTF-8 byte order is code point order, so bumping the last
 * code point gives the exact upper bound.
 */
export function prefixUpperBound(prefix: string): string {
  const points = Array.from(prefix);
  const last = points.pop();
  if (last === undefined) throw new RangeError('empty prefix');
  const next = (last.codePointAt(0) as number) + 1;
  // Skip the surrogate block, which has no characters of its own.
  return points.join('') + String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
}
