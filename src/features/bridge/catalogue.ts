/**
 * The bridge catalogue: chains and tokens as the union of the enabled providers' lists. Each
 * provider's answer is cached in the database for BRIDGE_CATALOGUE_TTL_SECONDS, so every process
 * (and a restarted one) reuses it, and a stale copy is served when the upstream is down: a token
 * list that is an hour old is far more useful than a 503.
 *
 * The spec's chains always come first and keep the shared registry's names and logos (facts from
 * the offline seed), with `isBridgeSupported` telling whether some enabled provider actually bridges
 * them. With no provider enabled, or none answering and nothing cached, there is nothing true to
 * sell: the answer is a free 503, never the seed alone.
 *
 * Every call takes the request's deadline (see `deadline.ts`): a caller stops waiting when it passes.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import { chainById, type KnownChain } from '../../platform/chains/registry.js';
import type { Database } from '../../platform/db/orm.js';
import { upstreamUnavailable } from '../../platform/errors.js';
import { beforeDeadline } from './deadline.js';
import { isEnabled } from './provider-registry.js';
import { nativeTokenAddress, seedChains } from './providers/catalogue-seed/index.js';
import type { BridgeChain, BridgeProvider, BridgeToken } from './providers/types.js';
import { familyOf, normalizeAddress } from './validation.js';

interface Entry {
  fetchedAt: number;
  value: unknown;
}

interface CatalogueRow {
  payload: string;
  fetched_at: string | Date;
}

export interface CatalogueOptions {
  ttlMs: number;
  /** Budget of one provider's catalogue fetch, which concurrent callers share. */
  timeoutMs: number;
  now?: () => number;
}

export class BridgeCatalogue {
  private readonly memory = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(
    private readonly db: Database,
    private readonly providers: readonly BridgeProvider[],
    private readonly options: CatalogueOptions,
    private readonly log: Logger,
  ) {
    this.now = options.now ?? Date.now;
  }

  private get enabled(): BridgeProvider[] {
    return this.providers.filter(isEnabled);
  }

  async chains(deadline: AbortSignal): Promise<BridgeChain[]> {
    const merged = new Map<string, BridgeChain>();
    for (const chain of seedChains()) merged.set(chain.caip2Id, { ...chain, isBridgeSupported: false });
    const enabled = this.requireEnabled();
    const answers = await this.fromEach(enabled, 'chains', (p, signal) => p.chains(signal), deadline);
    if (answers.every((a) => a === undefined)) {
      throw upstreamUnavailable('No bridge provider could list its chains; try again shortly');
    }
    for (const chains of answers) {
      for (const chain of (chains as BridgeChain[] | undefined) ?? []) {
        const known = merged.get(chain.caip2Id);
        if (known) known.isBridgeSupported ||= chain.isBridgeSupported;
        else merged.set(chain.caip2Id, describe(chain, chainById(chain.caip2Id)));
      }
    }
    return [...merged.values()];
  }

  async chain(caip2Id: string, deadline: AbortSignal): Promise<BridgeChain | undefined> {
    return (await this.chains(deadline)).find((c) => c.caip2Id === caip2Id);
  }

  /** Whether some enabled provider bridges the chain. */
  async isBridgeSupported(caip2Id: string, deadline: AbortSignal): Promise<boolean> {
    return (await this.chain(caip2Id, deadline))?.isBridgeSupported === true;
  }

  /** Tokens of a listed chain: the union of the providers that bridge it, native token first. */
  async tokens(caip2Id: string, deadline: AbortSignal): Promise<BridgeToken[]> {
    const family = familyOf(caip2Id);
    const enabled = this.requireEnabled();
    const answers = await this.fromEach(
      enabled,
      `tokens:${caip2Id}`,
      (p, signal) => p.tokens(caip2Id, signal),
      deadline,
    );
    if (answers.every((a) => a === undefined)) {
      throw upstreamUnavailable(`No bridge provider could list the tokens of ${caip2Id}; try again shortly`);
    }
    const merged = new Map<string, BridgeToken>();
    for (const tokens of answers) {
      for (const token of (tokens as BridgeToken[] | undefined) ?? []) {
        const key = family ? normalizeAddress(family, token.address) : token.address;
        const known = merged.get(key);
        if (!known) merged.set(key, { ...token });
        // Providers earlier in the list describe a token better; a later one may still know its price.
        else if (known.priceUSD === undefined && token.priceUSD !== undefined) known.priceUSD = token.priceUSD;
      }
    }
    const chain = chainById(caip2Id);
    const native = chain && nativeTokenAddress(chain);
    const nativeKey = native && family ? normalizeAddress(family, native) : undefined;
    const list = [...merged.entries()];
    list.sort(([a], [b]) => Number(b === nativeKey) - Number(a === nativeKey));
    return list.map(([, token]) => token);
  }

  private requireEnabled(): BridgeProvider[] {
    const enabled = this.enabled;
    if (enabled.length === 0) throw upstreamUnavailable('No bridge provider is enabled');
    return enabled;
  }

  /**
   * Each provider's cached or fresh answer, undefined for a provider that failed with nothing cached
   * or did not answer before the caller's deadline.
   */
  private fromEach(
    providers: BridgeProvider[],
    resource: string,
    fetch: (p: BridgeProvider, signal: AbortSignal) => Promise<unknown>,
    deadline: AbortSignal,
  ): Promise<unknown[]> {
    return Promise.all(
      providers.map((p) =>
        this.cached(p.name, resource, (signal) => fetch(p, signal), deadline).catch((err: unknown) => {
          this.log.warn({ err, provider: p.name, resource }, 'bridge catalogue fetch failed');
          return undefined;
        }),
      ),
    );
  }

  private async cached(
    provider: string,
    resource: string,
    fetch: (signal: AbortSignal) => Promise<unknown>,
    deadline: AbortSignal,
  ) {
    const key = `${provider}\u0000${resource}`;
    const fresh = (e: Entry | undefined) => e !== undefined && this.now() - e.fetchedAt < this.options.ttlMs;
    const inMemory = this.memory.get(key);
    if (fresh(inMemory)) return inMemory?.value;
    const running = this.inflight.get(key);
    if (running) return running;
    const load = (async () => {
      const stored = await this.read(provider, resource);
      if (fresh(stored)) {
        this.memory.set(key, stored as Entry);
        return stored?.value;
      }
      try {
        // Bounded by the deadline of the request that started it, so the stale copy below can still
        // be served in time; concurrent callers joining it share that bound.
        const signal = AbortSignal.any([deadline, AbortSignal.timeout(this.options.timeoutMs)]);
        const value = await beforeDeadline(fetch(signal), signal);
        const entry = { fetchedAt: this.now(), value };
        await this.write(provider, resource, entry);
        this.memory.set(key, entry);
        return value;
      } catch (err) {
        if (stored) {
          this.log.warn({ err, provider, resource }, 'bridge catalogue refresh failed; serving the stale copy');
          return stored.value;
        }
        throw err;
      }
    })();
    this.inflight.set(key, load);
    try {
      return await load;
    } finally {
      this.inflight.delete(key);
    }
  }

  private async read(provider: string, resource: string): Promise<Entry | undefined> {
    const [row] = await this.db.query<CatalogueRow>(
      'select payload, fetched_at from bridge_catalogue where provider = ? and resource = ?',
      [provider, resource],
    );
    if (!row) return undefined;
    try {
      return { fetchedAt: new Date(row.fetched_at).getTime(), value: JSON.parse(row.payload) };
    } catch {
      return undefined;
    }
  }

  private async write(provider: string, resource: string, entry: Entry): Promise<void> {
    await this.db.run(
      `insert into bridge_catalogue (provider, resource, payload, fetched_at) values (?, ?, ?, ?)
       on conflict (provider, resource) do update set payload = excluded.payload, fetched_at = excluded.fetched_at`,
      [provider, resource, JSON.stringify(entry.value), new Date(entry.fetchedAt)],
    );
  }
}

/** A chain the registry knows keeps the registry's description, whoever lists it. */
function describe(chain: BridgeChain, known: KnownChain | undefined): BridgeChain {
  if (!known) return { ...chain };
  return { ...chain, name: known.name, nativeToken: known.nativeToken, logoURI: known.logoURI };
}
