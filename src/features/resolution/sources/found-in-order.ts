/**
 * What a source found for a list of keys, by position: `answers[i]` answers `asked[i]` (undefined where
 * nothing was found). Read by key it is a `ReadonlyMap`, whose table is built on the first such read.
 *
 * Why: a 1000-address batch's keys are fresh strings from the request body, and a Map hashes each one
 * it is given, which reading the answers by position avoids; a caller that knows what it asked
 * (`PartitionedLoader`) does that with `at`.
 *
 * @example
 * const found = new FoundInOrder(keys, await findPrimaryNames(db, network, keys));
 * found.asked === keys && found.at(0); // keys[0]'s answer, no hashing
 * found.get(keys[0]); // the same, through the table
 */
export class FoundInOrder<V> implements ReadonlyMap<string, V> {
  #byKey: Map<string, V> | undefined;

  constructor(
    readonly asked: readonly string[],
    readonly answers: readonly (V | undefined)[],
  ) {}

  /** The answer for `asked[i]`. */
  at(i: number): V | undefined {
    return this.answers[i];
  }

  #table(): Map<string, V> {
    if (!this.#byKey) {
      const { asked, answers } = this;
      this.#byKey = new Map();
      for (let i = 0; i < asked.length; i++) {
        const answer = answers[i];
        if (answer !== undefined) this.#byKey.set(asked[i] as string, answer);
      }
    }
    return this.#byKey;
  }

  get(key: string): V | undefined {
    return this.#table().get(key);
  }

  has(key: string): boolean {
    return this.#table().has(key);
  }

  get size(): number {
    return this.#table().size;
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#table()) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[string, V]> {
    return this.#table().entries();
  }

  keys(): MapIterator<string> {
    return this.#table().keys();
  }

  values(): MapIterator<V> {
    return this.#table().values();
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.#table()[Symbol.iterator]();
  }
}

/**
 * What `found` answers for `asked[i]`: by position when `found` answered these very keys in order, else
 * by key (a source that keyed its answers, or answered a list of its own, such as a turn's).
 */
export function answerAt<V>(asked: readonly string[], found: ReadonlyMap<string, V>, i: number): V | undefined {
  return found instanceof FoundInOrder && found.asked === asked ? found.at(i) : found.get(asked[i] as string);
}
