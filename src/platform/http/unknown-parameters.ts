import { badInput } from '../errors.js';

/** A spelling of a name that ignores case, `_` and `-`: `per_page`, `PerPage` and `perPage` are one. */
const loose = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** Edit distance of two short strings (parameter names), for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The known name `given` most likely meant, if one is close: the same loosely, or one or two edits away. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const target = loose(given);
  const same = known.find((name) => loose(name) === target);
  if (same) return same;
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = distance(target, loose(name));
    if (d <= (name.length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/**
 * Refuses (a free 400 naming it) the first parameter a partner path does not take: a misspelt one would
 * otherwise be dropped and the call answered, and charged, as if it had not been sent.
 */
export function refuseUnknownParameters(given: unknown, known: readonly string[], where: 'query' | 'body'): void {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return;
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    const kind = where === 'query' ? 'query parameter' : 'body field';
    const match = closestName(name, known);
    const hint = match
      ? `; did you mean "${match}"?`
      : known.length
        ? `; this path takes ${known.map((k) => `"${k}"`).join(', ')}`
        : `; this path takes no ${kind}s`;
    throw badInput(`Unknown ${kind} "${name.slice(0, 64)}"${hint}`);
  }
}
