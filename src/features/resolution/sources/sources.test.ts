import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAROL, UPSTREAM_NAMES } from '../../../../test/fixtures/mns/upstream.js';
import { type MnsUpstreamStandin, startMnsUpstream } from '../../../../test/support/mns-upstream-standin.js';
import { MnsSources } from './index.js';
import type { MnsSource, SourceName } from './types.js';
import { createUpstreamSource } from './upstream.js';

const name = (n: string, owner: string, source: string): SourceName => ({
  name: n,
  network: '126',
  owner,
  resolverAddress: null,
  registeredAt: null,
  expireAt: null,
  records: null,
  source,
});

/** An in-memory source over a fixed map, recording what it was asked. */
function memorySource(label: string, known: Record<string, string>, asked: string[][]): MnsSource {
  const none = async () => new Map();
  return {
    name: label,
    async names(_network, names) {
      asked.push([...names]);
      return new Map(names.filter((n) => n in known).map((n) => [n, name(n, known[n] as string, label)]));
    },
    primaryNames: none,
    records: none,
    subNames: none,
    chainAddresses: none,
  };
}

describe('MnsSources', () => {
  it('asks the sources in order, each only about what the earlier ones did not know', async () => {
    const askedLocal: string[][] = [];
    const askedUpstream: string[][] = [];
    const sources = new MnsSources([
      memorySource('registry', { 'a.snow': '0x1' }, askedLocal),
      memorySource('upstream', { 'a.snow': '0x2', 'b.snow': '0x3' }, askedUpstream),
    ]);
    const found = await sources.names('126', ['a.snow', 'b.snow', 'c.snow', 'a.snow']);
    expect([...found.values()].map((r) => [r.name, r.owner, r.source])).toEqual([
      ['a.snow', '0x1', 'registry'],
      ['b.snow', '0x3', 'upstream'],
    ]);
    expect(askedLocal).toEqual([['a.snow', 'b.snow', 'c.snow']]);
    expect(askedUpstream).toEqual([['b.snow', 'c.snow']]);
  });

  it('refuses two sources with one name', () => {
    expect(() => new MnsSources([memorySource('x', {}, []), memorySource('x', {}, [])])).toThrow(/distinct/);
  });
});

describe('upstream MNS source', () => {
  let upstream: MnsUpstreamStandin;
  beforeAll(async () => {
    upstream = await startMnsUpstream(UPSTREAM_NAMES);
  });
  afterAll(() => upstream.close());

  it('caches answers, "not found" included, for the TTL and in bounded space', async () => {
    let now = 1_000_000;
    const source = createUpstreamSource({
      baseUrl: upstream.publicUrl,
      timeoutMs: 1000,
      cacheTtlMs: 60_000,
      cacheMaxEntries: 2,
      now: () => now,
    });
    upstream.resetCounts();
    const first = await source.names('126', ['carol.snow', 'nobody.snow']);
    expect(first.get('carol.snow')).toMatchObject({ owner: CAROL, source: 'upstream' });
    expect(first.has('nobody.snow')).toBe(false);
    await source.names('126', ['carol.snow', 'nobody.snow']);
    expect(upstream.count('/api/public/public-identity/addresses')).toBe(1);
    now += 60_001;
    await source.names('126', ['carol.snow']);
    expect(upstream.count('/api/public/public-identity/addresses')).toBe(2);
    // Two entries at most: asking about two other names evicts carol.snow.
    await source.names('126', ['m1.snow', 'm2.snow']);
    await source.names('126', ['carol.snow']);
    expect(upstream.count('/api/public/public-identity/addresses')).toBe(4);
  });

  it('reads a refused question (a chain a spec-only upstream does not know) as "unknown here"', async () => {
    const source = createUpstreamSource({
      baseUrl: upstream.publicUrl,
      timeoutMs: 1000,
      cacheTtlMs: 0,
      cacheMaxEntries: 0,
    });
    expect((await source.chainAddresses('eip155:1', ['126'], ['carol.snow'])).size).toBe(0);
    expect((await source.records('126', ['nobody.snow'])).size).toBe(0);
  });
});
