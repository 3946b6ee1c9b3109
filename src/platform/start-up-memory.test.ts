import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { releaseStartUpMemory } from './start-up-memory.js';

const newSpaceBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

describe('releaseStartUpMemory', () => {
  it('shrinks a young generation that start-up grew, without exposing gc to the process', () => {
    // Start-up's pattern: many short-lived objects, some surviving a few scavenges, which grows new space.
    let kept: { i: number; s: string }[] = [];
    for (let i = 0; i < 3_000_000; i++) {
      kept.push({ i, s: `item ${i}` });
      if (kept.length > 200_000) kept = [];
    }
    kept = [];
    const grown = newSpaceBytes();
    expect(grown).toBeGreaterThan(4 * 2 ** 20);

    releaseStartUpMemory();

    expect(newSpaceBytes()).toBeLessThan(grown / 2);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
