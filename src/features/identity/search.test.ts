import pino from 'pino';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { withTestDatabase } from '../../../test/support/with-database.js';
import { disabled, enabled, UpstreamError } from '../../platform/upstream/status.js';
import { NameIndex } from './name-index.js';
import { namingProviders } from './provider-registry.js';
import type { NameRecord, NamingProvider } from './providers/types.js';
import {
  IdentitySearch,
  InvalidQueryError,
  MAX_PREFIX_MATCHES,
  ProviderNotEnabledError,
  ProvidersUnavailableError,
} from './search.js';

const log = pino({ level: 'silent' });

type Behaviour = 'ok' | 'fail' | 'hang';

/**
 * A provider over an in-memory set of names. `hang` never settles and ignores its signal, the worst
 * case for the search's timeout; `listing` makes it answer `candidates` like a local registry.
 */
function fakeProvider(
  id: string,
  suffix: string,
  names: string[],
  opts: { listing?: boolean; off?: string; dns?: boolean } = {},
) {
  const calls: string[] = [];
  let behaviour: Behaviour = 'ok';
  const record = (name: string): NameRecord => ({
    name,
    ownerAddress: `0x${id}`,
    caip2Id: `test:${id}`,
    avatar: null,
    expireAt: null,
    registeredAt: null,
    multichainAddresses: [],
    txtRecords: [{ key: 'url', value: `https://${name}`, type: 'url' }],
  });
  const act = async <T>(value: () => T): Promise<T> => {
    if (behaviour === 'fail') throw new UpstreamError(id, 'down');
    if (behaviour === 'hang') return new Promise<T>(() => {});
    return value();
  };
  const provider: NamingProvider = {
    info: {
      provider: id,
      source: id,
      providerName: id.toUpperCase(),
      logoURI: 'https://x/l.png',
      url: 'https://x',
      caip2Id: `test:${id}`,
      suffixes: [suffix],
    },
    status: opts.off ? disabled(opts.off) : enabled,
    normalize(name) {
      const n = name.toLowerCase();
      if (
        (!n.endsWith(suffix) && !opts.dns) ||
        n
          .slice(0, -suffix.length)
          .split('.')
          .some((l) => l === '')
      ) {
        throw new Error(`empty label in ${name}`);
      }
      if (id === 'strict' && n.includes('_')) throw new Error('underscore not allowed');
      return n;
    },
    resolve: async () => null,
    reverse: async () => null,
    async records(name) {
      calls.push(`records ${name}`);
      return act(() => (names.includes(name) ? record(name) : null));
    },
    async candidates(prefix, limit) {
      calls.push(`candidates ${prefix}`);
      return act(() =>
        opts.listing
          ? names
              .filter((n) => n.startsWith(prefix))
              .sort()
              .slice(0, limit)
          : [],
      );
    },
  };
  return { provider, calls, set: (b: Behaviour) => (behaviour = b) };
}

const { db } = withTestDatabase();

describe('IdentitySearch', () => {
  let home: ReturnType<typeof fakeProvider>;
  let chain: ReturnType<typeof fakeProvider>;
  let sub: ReturnType<typeof fakeProvider>;
  let sol: ReturnType<typeof fakeProvider>;
  let index: NameIndex;
  let search: IdentitySearch;

  beforeEach(async () => {
    await db.run('delete from name_index');
    home = fakeProvider(
      'home',
      '.snow',
      ['alice.snow', 'alicebob.snow', 'alicia.snow', 'al.snow', 'pay.alice.snow', 'zed.snow'],
      {
        listing: true,
      },
    );
    chain = fakeProvider('chain', '.eth', ['alice.eth', 'alicia.eth', 'pay.alice.eth', 'bob.eth']);
    sub = fakeProvider('sub', '.base.eth', ['alice.base.eth']);
    sol = fakeProvider('sol', '.sol', ['alice.sol'], { off: 'SOLANA_RPC_URL is not set' });
    index = new NameIndex(db, 3600);
    search = new IdentitySearch(
      namingProviders([home.provider, chain.provider, sub.provider, sol.provider], 'home'),
      index,
      {
        timeoutMs: 200,
        log,
      },
    );
  });

  const names = (page: { hits: { record: NameRecord }[] }) => page.hits.map((h) => h.record.name);
  const run = (query: string, page = 1, perPage = 50) => search.search({ query, page, perPage });

  it('sends a full name only to the provider owning its longest suffix', async () => {
    const page = await run('Alice.Base.ETH');
    expect(names(page)).toEqual(['alice.base.eth']);
    expect(page.hits[0]).toMatchObject({ exact: true, info: { provider: 'sub' } });
    expect(chain.calls).toEqual([]);
    expect(home.calls).toEqual([]);
    expect((await run('alice.eth')).hits.map((h) => h.info.provider)).toEqual(['chain']);
    expect(sub.calls).toEqual(['records alice.base.eth']);
  });

  it('sends a dotted name no suffix claims (a DNS name) to ENS and to no other provider', async () => {
    const ens = fakeProvider('ens', '.eth', ['alice.eth', 'jesse.cb.id'], { dns: true });
    const sns = fakeProvider('sns', '.sol', ['jesse.sol']);
    const s = new IdentitySearch(
      namingProviders([home.provider, ens.provider, sub.provider, sns.provider], 'home'),
      index,
      {
        timeoutMs: 200,
        log,
      },
    );
    const page = await s.search({ query: 'Jesse.CB.id', page: 1, perPage: 10 });
    expect(names(page)).toEqual(['jesse.cb.id']);
    expect(page.hits[0]).toMatchObject({ exact: true, info: { provider: 'ens' } });
    // A dotted query without a known suffix is no longer a bare label: `pay.alice` is not tried as
    // `pay.alice.snow`, `pay.alice.sol`, … but as the DNS name it is.
    expect(await s.search({ query: 'pay.alice', page: 1, perPage: 10 })).toEqual({
      hits: [],
      total: 0,
      totalIsExact: true,
      failed: [],
    });
    expect(ens.calls).toEqual(['records jesse.cb.id', 'records pay.alice']);
    expect([home.calls, sub.calls, sns.calls]).toEqual([[], [], []]);
    // A bare label still goes everywhere.
    await s.search({ query: 'jesse', page: 1, perPage: 10 });
    expect(sns.calls).toEqual(['records jesse.sol', 'candidates jesse']);
  });

  it('refuses a DNS name when the DNS provider is disabled or absent, without asking anyone', async () => {
    const off = fakeProvider('ens', '.eth', ['jesse.cb.id'], { dns: true, off: 'ENS_RPC_URL is not set' });
    const s = new IdentitySearch(namingProviders([home.provider, off.provider], 'home'), index, {
      timeoutMs: 200,
      log,
    });
    await expect(s.search({ query: 'jesse.cb.id', page: 1, perPage: 10 })).rejects.toThrow(
      new ProviderNotEnabledError('ENS (DNS names) is not enabled on this server'),
    );
    // The main suite has no provider with the id `ens`: a DNS name there is a bad query, not a bare label.
    await expect(run('jesse.cb.id')).rejects.toThrow(
      /"jesse.cb.id" has no suffix that a naming provider here resolves/,
    );
    // The DNS provider is an option, for a deployment whose ENS provider has another id.
    const other = fakeProvider('names', '.eth', ['jesse.cb.id'], { dns: true });
    const dns = new IdentitySearch(namingProviders([home.provider, other.provider], 'home'), index, {
      timeoutMs: 200,
      log,
      dnsProvider: 'names',
    });
    expect(names(await dns.search({ query: 'jesse.cb.id', page: 1, perPage: 10 }))).toEqual(['jesse.cb.id']);
    expect([off.calls, home.calls]).toEqual([[], []]);
  });

  it('answers a full name that does not exist with no results', async () => {
    expect(await run('nobody.eth')).toEqual({ hits: [], total: 0, totalIsExact: true, failed: [] });
  });

  it('orders a bare label: exact matches, home registry first, then prefix matches by name', async () => {
    const page = await run('alice');
    expect(names(page)).toEqual(['alice.snow', 'alice.base.eth', 'alice.eth', 'alicebob.snow']);
    expect(page.hits.map((h) => h.exact)).toEqual([true, true, true, false]);
    // "ali" is no name anywhere: the registry's listing, then the names the index holds from other providers.
    const prefix = await run('ali');
    expect(names(prefix)).toEqual(['alice.snow', 'alicebob.snow', 'alicia.snow', 'alice.base.eth', 'alice.eth']);
    expect(prefix.hits.every((h) => !h.exact)).toBe(true);
    expect(prefix.total).toBe(5);
  });

  it('skips disabled providers without counting them as failures', async () => {
    const page = await run('alice');
    expect(page.failed).toEqual([]);
    expect(sol.calls).toEqual([]);
    expect(names(page)).not.toContain('alice.sol');
  });

  it('refuses a full name of a disabled provider as bad input that says so, without asking anyone', async () => {
    const err = await run('alice.sol').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderNotEnabledError);
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect((err as Error).message).toBe('SOL (.sol) is not enabled on this server');
    // Even a name the provider could not hold: the answer is about the server, not the name.
    await expect(run('a..sol')).rejects.toThrow('SOL (.sol) is not enabled on this server');
    expect(sol.calls).toEqual([]);
  });

  it('lists names other providers resolved before, until their entry expires', async () => {
    await run('alicia');
    expect(names(await run('alic'))).toEqual(['alice.snow', 'alicebob.snow', 'alicia.snow', 'alicia.eth']);
    // A lookup that finds the name gone removes it from the index.
    chain.provider.records = async () => null;
    await run('alicia');
    expect(names(await run('alic'))).toEqual(['alice.snow', 'alicebob.snow', 'alicia.snow']);
    // Entries past their TTL are not served, and the sweep deletes them.
    const stale: NameRecord = {
      ...((await sub.provider.records('alice.base.eth')) as NameRecord),
      name: 'alicia.base.eth',
    };
    await index.update('sub', [stale], [], new Date(Date.now() - 7200_000));
    expect(names(await run('alic'))).toEqual(['alice.snow', 'alicebob.snow', 'alicia.snow']);
    expect(await index.sweep()).toBe(1);
  });

  it('writes the index only when an answer changes it, all providers in one call', async () => {
    const writes = vi.spyOn(db, 'run');
    const indexWrites = () => writes.mock.calls.filter(([sql]) => String(sql).includes('name_index')).length;
    const owners = async () =>
      (await run('alic')).hits.filter((h) => h.info.provider === 'chain').map((h) => h.record.ownerAddress);
    try {
      // chain finds alicia.eth (one upsert); sub misses alicia.base.eth, which the index read shows it
      // never held, so there is nothing to delete.
      await run('alicia');
      expect(indexWrites()).toBe(1);
      // The same answers again within the TTL change nothing.
      await run('alicia');
      expect(indexWrites()).toBe(1);
      // A changed record is written, and served from then on.
      const original = chain.provider.records;
      chain.provider.records = async (name, options) => {
        const record = await original(name, options);
        return record && { ...record, ownerAddress: '0xnew' };
      };
      await run('alicia');
      expect(indexWrites()).toBe(2);
      expect(await owners()).toEqual(['0xnew']);
      // An unchanged entry past half its TTL is refreshed, so a name looked up often stays listed.
      const aged = new Date(Date.now() - 1900_000);
      await index.update(
        'chain',
        (await index.prefix('alicia', ['chain'], 10)).map((e) => e.record),
        [],
        aged,
      );
      const before = indexWrites();
      await run('alicia');
      expect(indexWrites()).toBe(before + 1);
      const [entry] = await index.prefix('alicia', ['chain'], 10);
      expect(entry?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);
      // A name that is gone is deleted in one statement.
      chain.provider.records = async () => null;
      await run('alicia');
      expect(indexWrites()).toBe(before + 2);
      expect(await owners()).toEqual([]);
    } finally {
      writes.mockRestore();
    }
  });

  it('never lists the home registry from the index: its own listing is authoritative', async () => {
    await run('alice.snow');
    expect(await db.query('select name from name_index')).toEqual([]);
  });

  it('gives stable, complete pages', async () => {
    await run('alicia');
    await run('alice');
    const all = names(await run('al', 1, 50));
    expect(all).toEqual([
      'al.snow',
      'alice.snow',
      'alicebob.snow',
      'alicia.snow',
      'alice.base.eth',
      'alice.eth',
      'alicia.eth',
    ]);
    const paged: string[] = [];
    for (let p = 1; p <= 4; p++) {
      const page = await run('al', p, 2);
      expect(page.total).toBe(all.length);
      paged.push(...names(page));
    }
    expect(paged).toEqual(all);
    expect((await run('al', 9, 2)).hits).toEqual([]);
  });

  it('drops a failing provider and a provider that ignores its deadline, and answers with the rest', async () => {
    chain.set('fail');
    sub.set('hang');
    const started = Date.now();
    const page = await run('alice');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(names(page)).toEqual(['alice.snow', 'alicebob.snow']);
    expect(page.failed.sort()).toEqual(['chain', 'sub']);
  });

  it('gives all calls of one search one deadline: a slow lookup leaves only the rest for the page', async () => {
    // Each call fits the 200 ms provider timeout on its own, but the lookup and then the page's record
    // reads together do not fit the search's deadline (1.5 × 200 ms).
    const records = home.provider.records;
    home.provider.records = async (name, options) => {
      await new Promise((r) => setTimeout(r, 180));
      return records(name, options);
    };
    const started = Date.now();
    const page = await run('alice');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(450);
    expect(page.failed).toEqual(['home']);
    expect(names(page)).toEqual(['alice.snow', 'alice.base.eth', 'alice.eth']);
  });

  it('ends a search when the caller aborts it', async () => {
    chain.set('hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const page = await search.search({ query: 'alice', page: 1, perPage: 10, signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(150);
    expect(page.failed).toContain('chain');
  });

  it('drops index entries of a provider that failed in this search', async () => {
    await run('alicia');
    chain.set('fail');
    expect(names(await run('alic'))).toEqual(['alice.snow', 'alicebob.snow', 'alicia.snow']);
  });

  it('fails only when every consulted provider fails', async () => {
    home.set('fail');
    chain.set('fail');
    sub.set('hang');
    await expect(run('alice')).rejects.toThrow(ProvidersUnavailableError);
    await expect(run('alice.eth')).rejects.toThrow(ProvidersUnavailableError);
  });

  it('drops the home registry when its listing fails, even though its exact lookup answered', async () => {
    home.provider.candidates = async () => {
      throw new UpstreamError('home', 'index down');
    };
    const page = await run('alice');
    expect(page.failed).toEqual(['home']);
    expect(names(page)).toEqual(['alice.base.eth', 'alice.eth']);
  });

  it('rejects blank, overlong and unsearchable queries with the reason', async () => {
    await expect(run('   ')).rejects.toThrow(/blank/);
    await expect(run('a'.repeat(256))).rejects.toThrow(/at most 255/);
    await expect(run('al ice')).rejects.toThrow(InvalidQueryError);
    await expect(run('a..eth')).rejects.toThrow(/not a valid CHAIN name: empty label/);
    await expect(search.search({ query: 'a', page: 0, perPage: 1 })).rejects.toThrow(/page/);
    await expect(search.search({ query: 'a', page: 1, perPage: 51 })).rejects.toThrow(/perPage/);
  });

  it('looks a label up only where it is valid, and rejects it when it is valid nowhere', async () => {
    const strict = fakeProvider('strict', '.eth', ['a_b.eth']);
    const loose = fakeProvider('loose', '.snow', ['a_b.snow'], { listing: true });
    const s = new IdentitySearch(namingProviders([loose.provider, strict.provider], 'loose'), index, {
      timeoutMs: 200,
      log,
    });
    expect(names(await s.search({ query: 'a_b', page: 1, perPage: 10 }))).toEqual(['a_b.snow']);
    expect(strict.calls).toEqual([]);
    const onlyStrict = new IdentitySearch(namingProviders([strict.provider]), index, { timeoutMs: 200, log });
    await expect(onlyStrict.search({ query: 'a_b', page: 1, perPage: 10 })).rejects.toThrow(/underscore not allowed/);
  });

  it('answers unavailable when no provider is enabled', async () => {
    const none = new IdentitySearch(namingProviders([sol.provider]), index, { timeoutMs: 200, log });
    await expect(none.search({ query: 'alice', page: 1, perPage: 10 })).rejects.toThrow(
      /No naming provider is enabled/,
    );
  });

  it('caps prefix matches per source, and says the total is then a lower bound', async () => {
    const many = Array.from({ length: MAX_PREFIX_MATCHES + 20 }, (_, i) => `n${String(i).padStart(4, '0')}.snow`);
    const big = fakeProvider('big', '.snow', many, { listing: true });
    const s = new IdentitySearch(namingProviders([big.provider], 'big'), index, { timeoutMs: 200, log });
    const page = await s.search({ query: 'n', page: 1, perPage: 3 });
    expect(page.total).toBe(MAX_PREFIX_MATCHES);
    expect(page.totalIsExact).toBe(false);
    expect(names(page)).toEqual(['n0000.snow', 'n0001.snow', 'n0002.snow']);
    // Records are read for the page only, not for every listed name.
    expect(big.calls.filter((c) => c.startsWith('records')).length).toBe(4);
    // A prefix that matches fewer than the cap is counted exactly.
    const few = await s.search({ query: 'n000', page: 1, perPage: 3 });
    expect([few.total, few.totalIsExact]).toEqual([10, true]);
  });
});

describe('IdentitySearch routing by each service’s naming rules', () => {
  /**
   * A Farcaster-like provider: usernames carry no suffix (`alice`), `.fcast.id` and the `farcaster/`
   * prefix name them explicitly, and a bare label is asked as it is.
   */
  function labelProvider(names: string[]) {
    const base = fakeProvider('fc', '.fcast.id', names);
    const provider: NamingProvider = {
      ...base.provider,
      info: { ...base.provider.info, prefixes: ['farcaster/'], bareLabel: 'label' },
      normalize(name) {
        const n = name
          .toLowerCase()
          .replace(/^farcaster\//, '')
          .replace(/\.fcast\.id$/, '');
        if (!/^[a-z0-9-]+(\.eth)?$/.test(n)) throw new Error('not a username');
        return n;
      },
    };
    return { ...base, provider };
  }

  let home: ReturnType<typeof fakeProvider>;
  let chain: ReturnType<typeof fakeProvider>;
  let fc: ReturnType<typeof labelProvider>;
  let quiet: ReturnType<typeof fakeProvider>;
  let search: IdentitySearch;
  beforeEach(async () => {
    await db.run('delete from name_index');
    home = fakeProvider('home', '.snow', ['alice.snow'], { listing: true });
    chain = fakeProvider('chain', '.eth', ['alice.eth', 'vitalik.eth']);
    fc = labelProvider(['alice', 'vitalik.eth']);
    quiet = fakeProvider('quiet', '.quiet', ['alice.quiet']);
    quiet.provider = { ...quiet.provider, info: { ...quiet.provider.info, bareLabel: 'none' } };
    search = new IdentitySearch(
      namingProviders([home.provider, chain.provider, fc.provider, quiet.provider], 'home'),
      new NameIndex(db, 3600),
      { timeoutMs: 200, log },
    );
  });
  const run = (query: string) => search.search({ query, page: 1, perPage: 50 });
  const found = (page: { hits: { record: NameRecord; info: { provider: string } }[] }) =>
    page.hits.map((h) => `${h.info.provider}:${h.record.name}`);

  it('asks a bare label of every provider that has bare labels, each in its own naming, MNS first', async () => {
    expect(found(await run('Alice'))).toEqual(['home:alice.snow', 'fc:alice', 'chain:alice.eth']);
    expect(fc.calls).toEqual(['records alice', 'candidates alice']);
    expect(quiet.calls).toEqual([]);
  });

  it('sends a namespace prefix to its provider before any suffix, and an explicit suffix too', async () => {
    expect(found(await run('farcaster/Vitalik.eth'))).toEqual(['fc:vitalik.eth']);
    expect(chain.calls).toEqual([]);
    expect(found(await run('alice.fcast.id'))).toEqual(['fc:alice']);
    expect(found(await run('alice.quiet'))).toEqual(['quiet:alice.quiet']);
  });

  it('leaves a failing or hanging bare-label provider out, named in failed', async () => {
    fc.set('hang');
    const page = await run('alice');
    expect(found(page)).toEqual(['home:alice.snow', 'chain:alice.eth']);
    expect(page.failed).toEqual(['fc']);
  });

  it('refuses a bare label, for free, when no enabled provider takes bare labels', async () => {
    const only = new IdentitySearch(namingProviders([quiet.provider]), new NameIndex(db, 3600), {
      timeoutMs: 200,
      log,
    });
    await expect(only.search({ query: 'alice', page: 1, perPage: 10 })).rejects.toBeInstanceOf(InvalidQueryError);
  });
});
