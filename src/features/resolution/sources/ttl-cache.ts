import { LRUCache } from 'lru-cache';

/** lru-cache holds no null: a cached "nothing" is stored as this. */
const NOTHING = Symbol('nothing');

/**
 * A bounded cache whose entries expire after a TTL, least recently used evicted first. A TTL or size of
 * 0 turns it off.
 */
export class TtlCache<V> {
  private readonly entries: LRUCache<string, NonNullable<V> | typeof NOTHING> | undefined;

  constructor(ttlMs: number, maxEntries: number, now: () => number = Date.now) {
    if (ttlMs <= 0 || maxEntries <= 0) return;
    // Bounded by count through maxSize: `max` would allocate all of an operator-set size up front. The clock
    // is read on every check (ttlResolution 0), so an injected one is followed exactly.
    this.entries = new LRUCache({
      maxSize: maxEntries,
      sizeCalculation: () => 1,
      ttl: ttlMs,
      ttlResolution: 0,
      perf: { now },
    });
  }

  /** The live entry of `key`, or undefined on a miss (a cached "nothing" is stored as null). */
  get(key: string): V | undefined {
    const value = this.entries?.get(key);
    return value === NOTHING ? (null as V) : value;
  }

  set(key: string, value: V): void {
    this.entries?.set(key, value ?? NOTHING);
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
