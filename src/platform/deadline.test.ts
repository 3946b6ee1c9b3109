import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { deadline } from './deadline.js';

describe('deadline', () => {
  it('aborts with a TimeoutError once the time is up', async () => {
    const limit = deadline(20);
    expect(limit.signal.aborted).toBe(false);
    await sleep(60);
    expect(limit.signal.aborted).toBe(true);
    expect((limit.signal.reason as Error).name).toBe('TimeoutError');
    expect(limit.timedOut).toBe(true);
    limit.clear();
  });

  it('aborts with the reason of the parent that aborts first', () => {
    const a = new AbortController();
    const b = new AbortController();
    const limit = deadline(10_000, a.signal, undefined, b.signal);
    b.abort(new Error('client left'));
    a.abort(new Error('later'));
    expect((limit.signal.reason as Error).message).toBe('client left');
    expect(limit.timedOut).toBe(false);
    limit.clear();
  });

  it('starts aborted when a parent already is', () => {
    const a = new AbortController();
    a.abort(new Error('gone'));
    const limit = deadline(10_000, a.signal);
    expect(limit.signal.aborted).toBe(true);
    expect((limit.signal.reason as Error).message).toBe('gone');
    limit.clear();
  });

  it('once cleared, neither the timer nor a parent aborts it', async () => {
    const parent = new AbortController();
    const limit = deadline(20, parent.signal);
    limit.clear();
    limit.clear();
    await sleep(60);
    parent.abort(new Error('late'));
    expect(limit.signal.aborted).toBe(false);
  });
});
