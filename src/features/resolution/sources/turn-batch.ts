import { queryChunks } from './query-chunks.js';

/**
 * Lookups of this many keys or fewer are merged across requests. Larger ones already share their
 * statement's fixed cost among their own keys, and merged they cost more, not less (one map of all their
 * answers, and each request waiting for every statement).
 */
export const TURN_BATCHED_MAX_KEYS = 32;

interface Turn<V> {
  keys: Set<string>;
  waiters: { resolve: (found: ReadonlyMap<string, V>) => void; reject: (err: unknown) => void }[];
}

/**
 * Small lookups made in one turn of the event loop, by any request, answered together at the turn's end:
 * one `fetch` per partition (and MAX_KEYS_PER_QUERY keys) instead of one per request.
 *
 * A request's own DataLoader already merges its lookups; under load, a turn holds several requests'
 * (each read from its socket in the same turn), and their statements then share one parse, one bind and
 * one index walk, and on PostgreSQL one round trip. Alone, a lookup waits only for the rest of its turn.
 *
 * Every caller of a turn gets the same map (its keys and the others'), or the same error when the fetch
 * fails: one failing statement fails the requests that shared it, as it would have failed each of them.
 */
export class TurnBatch<P extends string, V> {
  #turn = new Map<P, Turn<V>>();
  #scheduled = false;

  constructor(private readonly fetch: (partition: P, keys: readonly string[]) => Promise<ReadonlyMap<string, V>>) {}

  /** What `fetch` finds for `keys` on `partition`, fetched with the turn's other small lookups. */
  load(partition: P, keys: readonly string[]): Promise<ReadonlyMap<string, V>> {
    if (keys.length > TURN_BATCHED_MAX_KEYS) return this.fetch(partition, keys);
    return new Promise((resolve, reject) => {
      let turn = this.#turn.get(partition);
      if (!turn) {
        turn = { keys: new Set(), waiters: [] };
        this.#turn.set(partition, turn);
      }
      for (const key of keys) turn.keys.add(key);
      turn.waiters.push({ resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#flush);
      }
    });
  }

  readonly #flush = (): void => {
    const turns = this.#turn;
    this.#turn = new Map();
    this.#scheduled = false;
    for (const [partition, { keys, waiters }] of turns) {
      const chunks: Promise<ReadonlyMap<string, V>>[] = [];
      try {
        for (const chunk of queryChunks([...keys])) chunks.push(this.fetch(partition, chunk));
      } catch (err) {
        // A fetch that throws instead of rejecting would otherwise end the process from a setImmediate.
        chunks.push(Promise.reject(err));
      }
      // One chunk (every turn of small lookups but the largest): its own promise, not a Promise.all's.
      const all: Promise<ReadonlyMap<string, V>> =
        chunks.length === 1
          ? (chunks[0] as Promise<ReadonlyMap<string, V>>)
          : Promise.all(chunks).then((maps) => new Map(maps.flatMap((m) => [...m])));
      all.then(
        (found) => {
          for (const waiter of waiters) waiter.resolve(found);
        },
        (err: unknown) => {
          for (const waiter of waiters) waiter.reject(err);
        },
      );
    }
  };
}
