import { describe, expect, it } from 'vitest';
import { MAX_KEYS_PER_QUERY } from './query-chunks.js';
import { TURN_BATCHED_MAX_KEYS, TurnBatch } from './turn-batch.js';

/** A batch over `key → partition:key`, recording each fetch; `fail` makes the fetches of a partition fail. */
function recording(fail?: string) {
  const fetches: [string, string[]][] = [];
  const batch = new TurnBatch(async (partition: string, keys: readonly string[]) => {
    fetches.push([partition, [...keys]]);
    if (partition === fail) throw new Error(`${partition} is down`);
    return new Map(keys.map((k) => [k, `${partition}:${k}`]));
  });
  return { batch, fetches };
}

const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('TurnBatch', () => {
  it("answers the small lookups of one turn with one fetch per partition, each caller's keys included", async () => {
    const { batch, fetches } = recording();
    const [a, b, c] = await Promise.all([
      batch.load('126', ['x', 'y']),
      batch.load('126', ['y', 'z']),
      batch.load('177', ['x']),
    ]);
    expect(fetches).toEqual([
      ['126', ['x', 'y', 'z']],
      ['177', ['x']],
    ]);
    expect([a?.get('x'), a?.get('y'), b?.get('z'), c?.get('x')]).toEqual(['126:x', '126:y', '126:z', '177:x']);
  });

  it('starts a new batch each turn', async () => {
    const { batch, fetches } = recording();
    await batch.load('126', ['x']);
    await batch.load('126', ['y']);
    expect(fetches).toEqual([
      ['126', ['x']],
      ['126', ['y']],
    ]);
  });

  it('fetches a larger lookup at once, on its own', async () => {
    const { batch, fetches } = recording();
    const big = keys(TURN_BATCHED_MAX_KEYS + 1);
    const pending = [batch.load('126', ['x']), batch.load('126', big)];
    expect(fetches).toEqual([['126', big]]);
    await Promise.all(pending);
    expect(fetches).toEqual([
      ['126', big],
      ['126', ['x']],
    ]);
  });

  it('keeps each fetch within MAX_KEYS_PER_QUERY keys', async () => {
    const { batch, fetches } = recording();
    const callers = Math.ceil(MAX_KEYS_PER_QUERY / TURN_BATCHED_MAX_KEYS) + 1;
    const found = await Promise.all(
      Array.from({ length: callers }, (_, i) => batch.load('126', keys(TURN_BATCHED_MAX_KEYS, `c${i}-`))),
    );
    expect(fetches.map(([, k]) => k.length)).toEqual([
      MAX_KEYS_PER_QUERY,
      callers * TURN_BATCHED_MAX_KEYS - MAX_KEYS_PER_QUERY,
    ]);
    expect(found[callers - 1]?.get(`c${callers - 1}-0`)).toBe(`126:c${callers - 1}-0`);
  });

  it('fails every caller of a failed fetch, and only those; the next turn asks again', async () => {
    const { batch, fetches } = recording('177');
    const outcomes = await Promise.allSettled([
      batch.load('177', ['x']),
      batch.load('177', ['y']),
      batch.load('126', ['x']),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(new Error('177 is down'));
    await expect(batch.load('177', ['x'])).rejects.toThrow('177 is down');
    expect(fetches.filter(([p]) => p === '177')).toHaveLength(2);
  });

  it('fails the callers of a fetch that throws instead of rejecting, and goes on', async () => {
    const batch = new TurnBatch((partition: string, keys: readonly string[]) => {
      if (partition === 'bad') throw new Error('thrown');
      return Promise.resolve(new Map(keys.map((k) => [k, k])));
    });
    const outcomes = await Promise.allSettled([batch.load('bad', ['x']), batch.load('126', ['x'])]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
  });
});
