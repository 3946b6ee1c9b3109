import { describe, expect, it } from 'vitest';
import { pinTickObjectShape } from './tick-shape.js';

describe('pinTickObjectShape', () => {
  it("keeps one of process.nextTick's queue entries, the same one on every call", () => {
    const entry = pinTickObjectShape() as { callback?: unknown } | undefined;
    // A Node that renamed the async resource or stopped building entries this way would leave nothing
    // pinned: the server would run, slower after its first idle collection (tick-shape.ts).
    expect(entry).toBeTypeOf('object');
    expect(entry?.callback).toBeTypeOf('function');
    expect(Object.getOwnPropertySymbols(entry).length).toBeGreaterThanOrEqual(2);
    expect(pinTickObjectShape()).toBe(entry);
  });

  it('turns its hook off: later ticks do not replace the kept entry', async () => {
    const entry = pinTickObjectShape();
    await new Promise((resolve) => process.nextTick(resolve));
    expect(pinTickObjectShape()).toBe(entry);
  });
});
