/** Keys above this are split into further queries, bounding the statement (and upstream batch) size. */
export const MAX_KEYS_PER_QUERY = 1000;

/** `keys` in runs of at most MAX_KEYS_PER_QUERY: one statement each. A list that fits is used as it is. */
export function queryChunks<T>(keys: readonly T[]): (readonly T[])[] {
  const chunks: (readonly T[])[] = [];
  for (let i = 0; i < keys.length; i += MAX_KEYS_PER_QUERY)
    chunks.push(i === 0 && keys.length <= MAX_KEYS_PER_QUERY ? keys : keys.slice(i, i + MAX_KEYS_PER_QUERY));
  return chunks;
}
