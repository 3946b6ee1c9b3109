import { describe, expect, it } from 'vitest';
import { gapAfterSlice } from './import-sqlite.js';

describe('gapAfterSlice', () => {
  // SQLite's default busy handler (sqliteDefaultBusyCallback, with usleep): the sleeps between its tries.
  const DELAYS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];
  /** When a write that began waiting at 0 tries next after having waited `waited` ms. */
  const nextTry = (waited: number): number => {
    let at = 0;
    for (let i = 0; at <= waited; i++) at += DELAYS[Math.min(i, DELAYS.length - 1)] as number;
    return at;
  };

  it('leaves the lock free until every write that began waiting during the slice has tried again', () => {
    const late: string[] = [];
    for (let held = 0; held <= 400; held += 0.5) {
      const gap = gapAfterSlice(held);
      // A write that began waiting during the slice has waited between 0 and `held` ms at its end.
      for (let waited = 0; waited <= held; waited += 0.5) {
        if (nextTry(waited) - waited > gap) late.push(`held ${held} ms, waited ${waited} ms`);
      }
    }
    expect(late).toEqual([]);
  });

  it('is shorter than the slice once the slice held the lock longer than the retries are apart', () => {
    expect(gapAfterSlice(60)).toBe(27);
    expect(gapAfterSlice(150)).toBe(52);
    expect(gapAfterSlice(500)).toBe(102);
    expect(gapAfterSlice(4)).toBe(6);
  });
});
