/**
 * The first place two JSON answers differ, as a path (`data.primaryNames[3].name: "a" ≠ "b"`), or null
 * when they are equal. Object key order is ignored; array order is not.
 */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (Object.is(a, b)) return null;
  // The balance left after a paid answer depends on what the other server charged the same partner
  // first: both must state it, as a number, but it cannot be the same number.
  if (path === 'extensions.credits.remaining' && typeof a === 'number' && typeof b === 'number') return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || '.'}: ${a.length} items ≠ ${b.length} items`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      const d = firstDifference(ao[k], bo[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v)?.slice(0, 80));
  return `${path || '.'}: ${show(a)} ≠ ${show(b)}`;
}
