import type { FastifyBaseLogger as Logger } from 'fastify';
import { deadline } from '../../platform/deadline.js';
import { AppError } from '../../platform/errors.js';
import type { IndexChange, IndexSnapshot, NameIndex } from './name-index.js';
import type { NamingProviders } from './provider-registry.js';
import type { NameRecord, NamingProvider, NamingProviderInfo } from './providers/types.js';

export const MAX_QUERY_LENGTH = 255;
export const MAX_PER_PAGE = 50;
/**
 * Prefix matches taken from each listing source (the local registry, the name index). A prefix so short
 * that a source holds more is answered with the first ones, and its `total` is marked a lower bound.
 */
export const MAX_PREFIX_MATCHES = 500;
/**
 * The provider that resolves DNS names (`jesse.cb.id`): ENS does, through ENSIP-10 wildcard resolvers,
 * CCIP-Read gateways and DNSSEC-imported names, so a dotted name no provider's suffix claims goes there.
 */
export const DEFAULT_DNS_PROVIDER = 'ens';
/** A search's deadline, in multiples of the provider timeout (see `IdentitySearch`). */
export const SEARCH_DEADLINE_FACTOR = 1.5;

/** A query the service cannot search for; the message names the problem (a 400). */
export class InvalidQueryError extends AppError {
  override name = 'InvalidQueryError';
  constructor(message: string) {
    super('BAD_USER_INPUT', message);
  }
}

/** No provider that had to answer did (a 503, free): failed or timed out. */
export class ProvidersUnavailableError extends AppError {
  override name = 'ProvidersUnavailableError';
  constructor(message: string) {
    super('UPSTREAM_UNAVAILABLE', message);
  }
}

/**
 * A full name whose suffix belongs to a provider this server runs without (a 400, free): asking again
 * cannot help, so it is the caller's input that cannot be served, not an outage.
 */
export class ProviderNotEnabledError extends InvalidQueryError {
  override name = 'ProviderNotEnabledError';
}

export interface IdentityHit {
  info: NamingProviderInfo;
  record: NameRecord;
  /** The query named this very name (as opposed to a prefix match). */
  exact: boolean;
}

export interface SearchPage {
  hits: IdentityHit[];
  /** Matches over all pages. */
  total: number;
  /** False when a listing source held more prefix matches than it was read for: `total` is a lower bound. */
  totalIsExact: boolean;
  /** Providers dropped from this answer because they failed or timed out. */
  failed: string[];
}

export interface SearchInput {
  query: string;
  page: number;
  perPage: number;
  /** Ends the search early (e.g. the client went away); the search's own deadline applies anyway. */
  signal?: AbortSignal;
}

interface Lookup {
  provider: NamingProvider;
  name: string;
}

/** One entry of the merged, ordered list; `record` is filled for the requested page only when missing. */
interface Match {
  provider: NamingProvider;
  name: string;
  exact: boolean;
  record: NameRecord | null;
}

/**
 * Identity search across naming providers.
 *
 * A full name (`alice.eth`, or `lens/stani` in a provider's namespace prefix) is looked up by the provider
 * owning it (a prefix first, else the longest suffix that matches); any other dotted name (a DNS name such
 * as `jesse.cb.id`) by the DNS provider, ENS, alone. A query without a dot is a bare label, looked up as an
 * exact name under every enabled provider that takes bare labels (each as its `bareLabel` rule makes the
 * name: `alice.eth` for ENS, `alice` for Farcaster) in parallel, plus prefix matches
 * from the local registry's listing and from the index of names other providers resolved before.
 * Order: exact matches first, the home registry's before other providers', then by name; the order
 * depends only on the data, so pages are stable. A search has one deadline, 1.5 × `timeoutMs`, for all
 * its provider calls: the lookups (every provider, in parallel) must answer within `timeoutMs` of it,
 * which leaves the rest for reading the records of the page's listed names, so one hanging provider
 * cannot starve the page. A provider that fails or is late is dropped, and only when every consulted
 * provider fails does the search fail.
 */
export class IdentitySearch {
  constructor(
    private readonly providers: NamingProviders,
    private readonly index: NameIndex,
    private readonly options: {
      timeoutMs: number;
      log: Logger;
      /** Id of the provider that resolves DNS names; `DEFAULT_DNS_PROVIDER` (ENS) unless set. */
      dnsProvider?: string;
    },
  ) {}

  async search({ query, page, perPage, signal: callerSignal }: SearchInput): Promise<SearchPage> {
    if (!Number.isInteger(page) || page < 1) throw new InvalidQueryError('page must be a positive integer');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
      throw new InvalidQueryError(`perPage must be an integer from 1 to ${MAX_PER_PAGE}`);
    }
    const text = checkQuery(query);
    const owner = this.providers.owning(text) ?? this.dnsNameProvider(text);
    const { timeoutMs } = this.options;
    const search = deadline(Math.ceil(timeoutMs * SEARCH_DEADLINE_FACTOR), callerSignal);
    const lookups = deadline(timeoutMs, search.signal);
    try {
      const matches: { list: Match[]; failed: string[]; complete?: boolean } = owner
        ? await this.fullName(owner, text, lookups.signal)
        : ADDRESS.test(text)
          ? await this.address(text, lookups.signal)
          : await this.bareLabel(text, lookups.signal);
      lookups.clear();
      matches.list.sort(this.compare);
      const start = (page - 1) * perPage;
      const hits = await this.fill(matches.list.slice(start, start + perPage), search.signal, matches.failed);
      return {
        hits,
        total: matches.list.length,
        // A full name or an address is looked up exactly; only a bare label lists prefix matches.
        totalIsExact: matches.complete ?? true,
        failed: matches.failed,
      };
    } finally {
      lookups.clear();
      search.clear();
    }
  }

  /**
   * The provider of a dotted name that no suffix claims: the DNS provider, whose normalization then
   * judges the name. Undefined for a bare label (no dot).
   */
  private dnsNameProvider(text: string): NamingProvider | undefined {
    if (!text.includes('.')) return undefined;
    const id = this.options.dnsProvider ?? DEFAULT_DNS_PROVIDER;
    const provider = this.providers.byId(id);
    if (!provider) throw new InvalidQueryError(`"${text}" has no suffix that a naming provider here resolves`);
    return provider;
  }

  private async fullName(
    provider: NamingProvider,
    text: string,
    signal: AbortSignal,
  ): Promise<{ list: Match[]; failed: string[] }> {
    if (!provider.status.enabled) {
      // Checked before the name's syntax: whatever the name, this server cannot look it up. The reason
      // (an unset setting) is for the operator's logs and /namingProviders, not for this answer.
      const lower = text.toLowerCase();
      const serves =
        this.providers.owning(text) === provider
          ? (provider.info.suffixes.find((suffix) => lower.endsWith(suffix.toLowerCase())) ??
            this.providers.suffixOf(provider))
          : 'DNS names';
      throw new ProviderNotEnabledError(`${provider.info.providerName} (${serves}) is not enabled on this server`);
    }
    const name = normalizeFor(provider, text);
    const lookups = [{ provider, name }];
    const outcomes = await this.exactLookups(lookups, '', signal);
    await this.remember(lookups, outcomes);
    const [outcome] = outcomes;
    if (!outcome || outcome.status === 'rejected') {
      throw new ProvidersUnavailableError(`${provider.info.providerName} is unavailable; try again later`);
    }
    const record = outcome.value.record;
    return { list: record ? [{ provider, name: record.name, exact: true, record }] : [], failed: [] };
  }

  /**
   * An address: every enabled provider is asked for the address's primary name (each answers null for
   * an address format its chain does not use — ENS and Basenames take EVM addresses, MNS Movement ones,
   * SNS Solana keys), and a name found is read like any exact match. A provider that fails is left out;
   * all failing is a free 503.
   */
  private async address(text: string, signal: AbortSignal): Promise<{ list: Match[]; failed: string[] }> {
    const enabled = this.providers.enabled();
    if (enabled.length === 0) throw new ProvidersUnavailableError('No naming provider is enabled');
    const outcomes = await Promise.allSettled(
      enabled.map((provider) =>
        this.bounded(provider, signal, async (bounded) => {
          const name = await provider.reverse(text, { signal: bounded });
          return name ? provider.records(name, { signal: bounded }) : null;
        }),
      ),
    );
    const list: Match[] = [];
    const failed: string[] = [];
    outcomes.forEach((outcome, i) => {
      const provider = enabled[i] as NamingProvider;
      if (outcome.status === 'rejected') {
        this.options.log.warn({ err: outcome.reason, provider: provider.info.provider }, 'reverse lookup failed');
        failed.push(provider.info.provider);
      } else if (outcome.value) {
        list.push({ provider, name: outcome.value.name, exact: true, record: outcome.value });
      }
    });
    if (failed.length === enabled.length) {
      throw new ProvidersUnavailableError('No naming provider answered; try again later');
    }
    return { list, failed };
  }

  private async bareLabel(
    text: string,
    signal: AbortSignal,
  ): Promise<{ list: Match[]; failed: string[]; complete: boolean }> {
    const enabled = this.providers.enabled();
    if (enabled.length === 0) throw new ProvidersUnavailableError('No naming provider is enabled');
    const lookups: Lookup[] = [];
    const rejections: string[] = [];
    for (const provider of enabled) {
      const name = this.providers.bareName(provider, text);
      if (name === null) continue;
      try {
        lookups.push({ provider, name: normalizeFor(provider, name) });
      } catch (err) {
        rejections.push((err as Error).message);
      }
    }
    // A label one service cannot hold (ENSIP-15 forbids `_`, say) may still be valid elsewhere.
    if (lookups.length === 0) {
      throw new InvalidQueryError(rejections[0] ?? 'no naming provider here looks up bare labels; add a suffix');
    }

    const prefix = text.normalize('NFC').toLowerCase();
    const [outcomes, indexed] = await Promise.all([this.exactLookups(lookups, prefix, signal), this.indexed(prefix)]);
    await this.remember(lookups, outcomes, indexed);

    const list: Match[] = [];
    const failed: string[] = [];
    const seen = new Set<string>();
    const add = (m: Match) => {
      const key = `${m.provider.info.provider}\u0000${m.name}`;
      if (seen.has(key)) return;
      seen.add(key);
      list.push(m);
    };
    outcomes.forEach((outcome, i) => {
      const { provider } = lookups[i] as Lookup;
      if (outcome.status === 'rejected') failed.push(provider.info.provider);
      else if (outcome.value.record)
        add({ provider, name: outcome.value.record.name, exact: true, record: outcome.value.record });
    });
    if (failed.length === lookups.length) {
      throw new ProvidersUnavailableError('No naming provider answered; try again later');
    }
    // Exact names were just asked live: whatever the index or a listing holds for them is older.
    for (const { name, provider } of lookups) seen.add(`${provider.info.provider}\u0000${name}`);
    outcomes.forEach((outcome) => {
      if (outcome.status === 'fulfilled') {
        for (const name of outcome.value.candidates)
          add({ provider: outcome.value.provider, name, exact: false, record: null });
      }
    });
    for (const entry of indexed.entries) {
      const provider = this.providers.byId(entry.provider);
      if (provider && !failed.includes(entry.provider)) {
        add({ provider, name: entry.record.name, exact: false, record: entry.record });
      }
    }
    // A listing read up to its limit may hold more: the count is then only what was read.
    const complete =
      indexed.entries.length < MAX_PREFIX_MATCHES &&
      outcomes.every((o) => o.status === 'rejected' || o.value.candidates.length < MAX_PREFIX_MATCHES);
    return { list, failed, complete };
  }

  /**
   * Exact lookups (and, when `prefix` is set, the provider's own prefix listing) in parallel, under the
   * search's deadline. A provider that fails is logged here and dropped by the caller.
   */
  private async exactLookups(lookups: readonly Lookup[], prefix: string, deadline: AbortSignal) {
    const outcomes = await Promise.allSettled(
      lookups.map(({ provider, name }) =>
        this.bounded(provider, deadline, async (signal) => {
          const [record, candidates] = await Promise.all([
            provider.records(name, { signal }),
            prefix ? provider.candidates(prefix, MAX_PREFIX_MATCHES, { signal }) : Promise.resolve([]),
          ]);
          return { provider, record, candidates };
        }),
      ),
    );
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') {
        const { provider } = lookups[i] as Lookup;
        this.options.log.warn({ err: outcome.reason, provider: provider.info.provider }, 'naming provider dropped');
      }
    });
    return outcomes;
  }

  /**
   * Writes what the exact lookups found or missed to the name index (the home registry lists its own
   * names, so it is left out), all providers in one call. `seen`, this search's own index read, lets the
   * index skip writes that would change nothing, so a repeated search writes nothing.
   */
  private async remember(
    lookups: readonly Lookup[],
    outcomes: Awaited<ReturnType<IdentitySearch['exactLookups']>>,
    seen?: IndexSnapshot,
  ): Promise<void> {
    const changes: IndexChange[] = [];
    outcomes.forEach((outcome, i) => {
      const { provider, name } = lookups[i] as Lookup;
      if (outcome.status === 'fulfilled' && provider.info.provider !== this.providers.home) {
        changes.push({ provider: provider.info.provider, name, record: outcome.value.record });
      }
    });
    if (changes.length === 0) return;
    try {
      await this.index.apply(changes, new Date(), seen);
    } catch (err) {
      // The index is a cache: losing an update costs a prefix match later, not this answer.
      this.options.log.warn({ err, providers: changes.map((c) => c.provider) }, 'name index update failed');
    }
  }

  /** Fresh index entries under `prefix` of the enabled providers other than the home registry. */
  private async indexed(prefix: string): Promise<IndexSnapshot> {
    const providers = this.providers
      .enabled()
      .map((p) => p.info.provider)
      .filter((id) => id !== this.providers.home);
    try {
      const entries = await this.index.prefix(prefix, providers, MAX_PREFIX_MATCHES);
      // A read cut at its limit may have left out entries, so it proves nothing about what is absent.
      return { prefix, providers, entries, complete: entries.length < MAX_PREFIX_MATCHES };
    } catch (err) {
      this.options.log.warn({ err }, 'name index read failed');
      return { prefix, providers, entries: [], complete: false };
    }
  }

  /**
   * Records of the page's listed names that have none yet (the registry's prefix matches). A provider
   * with `recordsMany` answers all of its names in one call (for MNS, one statement instead of one per
   * name and network); the others get one `records` call per name. A provider whose reads fail joins
   * `failed`, since its names are missing from the page.
   */
  private async fill(page: Match[], deadline: AbortSignal, failed: string[]): Promise<IdentityHit[]> {
    const filled: (NameRecord | null)[] = page.map((m) => m.record);
    const missing = new Map<NamingProvider, number[]>();
    page.forEach((m, i) => {
      if (m.record) return;
      const at = missing.get(m.provider);
      if (at) at.push(i);
      else missing.set(m.provider, [i]);
    });
    const lost = (err: unknown, provider: NamingProvider, names: string[]) => {
      this.options.log.warn({ err, provider: provider.info.provider, names }, 'listed name lookup failed');
      if (!failed.includes(provider.info.provider)) failed.push(provider.info.provider);
    };
    await Promise.all(
      [...missing].map(async ([provider, at]) => {
        const names = at.map((i) => (page[i] as Match).name);
        const many = provider.recordsMany;
        if (many) {
          try {
            const records = await this.bounded(provider, deadline, (signal) => many.call(provider, names, { signal }));
            at.forEach((i, k) => {
              filled[i] = records[k] ?? null;
            });
          } catch (err) {
            lost(err, provider, names);
          }
          return;
        }
        await Promise.all(
          at.map(async (i, k) => {
            try {
              filled[i] = await this.bounded(provider, deadline, (signal) =>
                provider.records(names[k] as string, { signal }),
              );
            } catch (err) {
              lost(err, provider, [names[k] as string]);
            }
          }),
        );
      }),
    );
    // A listed name that vanished since the listing (expired, deleted) is left out rather than faked.
    return page.flatMap((m, i) => {
      const record = filled[i];
      return record ? [{ info: m.provider.info, record, exact: m.exact }] : [];
    });
  }

  private readonly compare = (a: Match, b: Match): number => {
    if (a.exact !== b.exact) return a.exact ? -1 : 1;
    const home = this.providers.home;
    const aHome = a.provider.info.provider === home;
    const bHome = b.provider.info.provider === home;
    if (aHome !== bHome) return aHome ? -1 : 1;
    return compareStrings(a.name, b.name) || compareStrings(a.provider.info.provider, b.provider.info.provider);
  };

  /**
   * Runs one provider call under the search's deadline. The race also covers a provider that ignores
   * its signal: the search stops waiting either way.
   */
  private async bounded<T>(
    provider: NamingProvider,
    signal: AbortSignal,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const late = () => new Error(`${provider.info.provider} did not answer before the search's deadline`);
    if (signal.aborted) throw late();
    let onAbort: () => void = () => {};
    const timedOut = new Promise<never>((_, reject) => {
      onAbort = () => reject(late());
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([run(signal), timedOut]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** Code point order, the same order the databases' bytewise collations give. */
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** An EVM (20-byte) or Movement (32-byte) hex address, or a Solana base58 public key. */
const ADDRESS = /^(0x[0-9a-fA-F]{40}|0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;

function checkQuery(query: string): string {
  const text = query.trim();
  if (text === '') throw new InvalidQueryError('query must not be blank');
  if (text.length > MAX_QUERY_LENGTH)
    throw new InvalidQueryError(`query must be at most ${MAX_QUERY_LENGTH} characters`);
  if (/[\p{Cc}\s]/u.test(text)) throw new InvalidQueryError('query must not contain spaces or control characters');
  return text;
}

function normalizeFor(provider: NamingProvider, name: string): string {
  try {
    return provider.normalize(name);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new InvalidQueryError(`"${name}" is not a valid ${provider.info.providerName} name: ${reason}`);
  }
}
