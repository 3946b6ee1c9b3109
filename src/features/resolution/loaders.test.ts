import { describe, expect, it } from 'vitest';
import { PartitionedLoader } from './loaders.js';
import { FoundInOrder } from './sources/found-in-order.js';
import { MAX_KEYS_PER_QUERY } from './sources/query-chunks.js';

/** What each partition knows: every third value on `a`, every second one on `b`. */
const known = (partition: string, value: string): string | undefined => {
  const n = Number(value.slice(1));
  if (partition === 'a' && n % 3 === 0) return `a:${value}`;
  if (partition === 'b' && n % 2 === 0) return `b:${value}`;
  return undefined;
};

type Answering = 'in order' | 'keyed' | 'in its own order';

/** A source answering in one of the three ways a source may, counting its questions. */
function source(answering: Answering) {
  const asked: string[][] = [];
  const fetch = async (partition: string, values: readonly string[]): Promise<ReadonlyMap<string, string>> => {
    asked.push([partition, ...values]);
    if (answering === 'keyed') {
      const found = new Map<string, string>();
      for (const value of values) {
        const answer = known(partition, value);
        if (answer) found.set(value, answer);
      }
      return found;
    }
    // In its own order: positional answers to a list other than the one asked (as a turn's are).
    const list = answering === 'in order' ? values : [...values].reverse();
    return new FoundInOrder(
      list,
      list.map((value) => known(partition, value)),
    );
  };
  return { fetch, asked };
}

describe('PartitionedLoader', () => {
  it.each<Answering>(['in order', 'keyed', 'in its own order'])(
    'answers batches and single loads of one tick alike, whatever order the source answers in (%s)',
    async (answering) => {
      const { fetch, asked } = source(answering);
      const loader = new PartitionedLoader(fetch, null);
      // More values than one question holds, on two partitions, beside single loads in the same tick.
      const values = Array.from({ length: MAX_KEYS_PER_QUERY * 2 + 7 }, (_, i) => `v${i}`);
      const [batch, singleA, singleB, small] = await Promise.all([
        loader.firstOfEach(['a', 'b'], values),
        loader.load('a', 'v9'),
        loader.load('b', 'v9'),
        loader.firstOfEach(['b', 'a'], ['v3', 'v4', 'v5']),
      ]);
      expect(batch).toEqual(values.map((v) => known('a', v) ?? known('b', v) ?? null));
      expect([singleA, singleB]).toEqual(['a:v9', null]);
      expect(small).toEqual(['a:v3', 'b:v4', null]);
      // Per partition: the single and both batches' values, in questions of at most MAX_KEYS_PER_QUERY.
      const total = values.length + 4;
      expect(asked.map(([partition, ...list]) => [partition, list.length])).toEqual([
        ['a', MAX_KEYS_PER_QUERY],
        ['a', MAX_KEYS_PER_QUERY],
        ['a', total - 2 * MAX_KEYS_PER_QUERY],
        ['b', MAX_KEYS_PER_QUERY],
        ['b', MAX_KEYS_PER_QUERY],
        ['b', total - 2 * MAX_KEYS_PER_QUERY],
      ]);
      // A later single load of the request is answered from what the batch found, without a question.
      expect(await loader.load('a', 'v30')).toBe('a:v30');
      expect(await loader.load('b', 'v31')).toBeNull();
      expect(asked).toHaveLength(7);
    },
  );

  it.each<Answering>(['in order', 'keyed', 'in its own order'])(
    'answers a single load alone (%s)',
    async (answering) => {
      const { fetch } = source(answering);
      const loader = new PartitionedLoader(fetch, null);
      expect(await loader.load('a', 'v6')).toBe('a:v6');
      expect(await loader.load('a', 'v7')).toBeNull();
    },
  );
});
