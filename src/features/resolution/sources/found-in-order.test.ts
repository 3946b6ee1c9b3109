import { describe, expect, it } from 'vitest';
import { answerAt, FoundInOrder } from './found-in-order.js';

describe('FoundInOrder', () => {
  const asked = ['a', 'b', 'c', 'b'];
  const answers = [1, undefined, 3, 2];
  // What a Map keyed by the keys with an answer holds: holes left out, a repeated key's last answer.
  const keyed = new Map([
    ['a', 1],
    ['c', 3],
    ['b', 2],
  ]);

  it('reads by key as a Map of the keys that have an answer', () => {
    const found = new FoundInOrder(asked, answers);
    expect(found.get('a')).toBe(1);
    expect(found.get('b')).toBe(2);
    expect(found.has('b')).toBe(true);
    expect(found.has('z')).toBe(false);
    expect(found.get('z')).toBeUndefined();
    expect(found.size).toBe(3);
    expect(new Map(found)).toEqual(keyed);
    expect([...found.entries()]).toEqual([...keyed.entries()]);
    expect([...found.keys()]).toEqual([...keyed.keys()]);
    expect([...found.values()]).toEqual([...keyed.values()]);
    const seen: [string, number][] = [];
    found.forEach((value, key, map) => {
      expect(map).toBe(found);
      seen.push([key, value]);
    });
    expect(seen).toEqual([...keyed]);
  });

  it('answers by position for the list it was given, and by key for any other', () => {
    const found = new FoundInOrder(asked, answers);
    expect(asked.map((_, i) => answerAt(asked, found, i))).toEqual([1, undefined, 3, 2]);
    // The same keys in another array: read by key, so the repeated key answers alike in both places.
    const copy = [...asked];
    expect(copy.map((_, i) => answerAt(copy, found, i))).toEqual([1, 2, 3, 2]);
    expect(answerAt(['c', 'z'], keyed, 0)).toBe(3);
    expect(answerAt(['c', 'z'], keyed, 1)).toBeUndefined();
  });
});
