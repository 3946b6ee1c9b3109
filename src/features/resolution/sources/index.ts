import type { Config } from '../../../platform/config.js';
import type { Database } from '../../../platform/db/orm.js';
import { type MnsNetwork, preferredNetwork } from '../registry/networks.js';
import { chainReaderFromConfig } from './chain/source.js';
import { createRegistrySource } from './registry.js';
import type {
  MnsSource,
  NameRecords,
  SourceChainAddress,
  SourceName,
  SourceOptions,
  SourcePrimaryName,
  SourceSubName,
} from './types.js';
import { createUpstreamSource } from './upstream.js';

export { createRegistrySource, REGISTRY_SOURCE } from './registry.js';
export type * from './types.js';
export { createUpstreamSource, UPSTREAM_SOURCE } from './upstream.js';

/**
 * The MNS sources of this process, asked in order: each key goes to the first source, what it does not
 * know to the next, and so on, so a batch costs at most one question per source (and network).
 */
export class MnsSources {
  constructor(readonly list: readonly MnsSource[]) {
    const names = new Set(list.map((s) => s.name));
    if (names.size !== list.length) throw new Error('MNS sources must have distinct names');
  }

  private inOrder<V>(
    keys: readonly string[],
    ask: (source: MnsSource, keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
  ): Promise<ReadonlyMap<string, V>> {
    // One source (the embedded default: the registry alone) answers as it is: its own promise, not its map
    // copied nor its promise wrapped in an async function's (which costs two more microtask hops).
    if (this.list.length === 1) return ask(this.list[0] as MnsSource, keys);
    return this.eachInTurn(keys, ask);
  }

  private async eachInTurn<V>(
    keys: readonly string[],
    ask: (source: MnsSource, keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
  ): Promise<ReadonlyMap<string, V>> {
    const found = new Map<string, V>();
    let missing = [...new Set(keys)];
    for (const source of this.list) {
      if (!missing.length) break;
      for (const [key, value] of await ask(source, missing)) found.set(key, value);
      missing = missing.filter((k) => !found.has(k));
    }
    return found;
  }

  /** Asks each source about the keys it answered before (`sourceOf`), in parallel. */
  private async bySource<V>(
    keys: readonly { key: string; source: string }[],
    ask: (source: MnsSource, keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
  ): Promise<ReadonlyMap<string, V>> {
    const groups = new Map<string, string[]>();
    for (const { key, source } of keys) groups.set(source, [...(groups.get(source) ?? []), key]);
    const found = new Map<string, V>();
    await Promise.all(
      [...groups].map(async ([name, group]) => {
        const source = this.list.find((s) => s.name === name);
        if (!source) return;
        for (const [key, value] of await ask(source, group)) found.set(key, value);
      }),
    );
    return found;
  }

  names(
    network: MnsNetwork,
    names: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceName>> {
    return this.inOrder(names, (s, keys) => s.names(network, keys, options));
  }

  /**
   * The answering registration of each of `names` across `networks` (first network first), from the
   * first source that knows the name anywhere among them.
   */
  async namesAcross(
    networks: readonly MnsNetwork[],
    names: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceName>> {
    return this.inOrder(names, async (source, keys) => {
      const rows = source.namesOn
        ? await source.namesOn(networks, keys, options)
        : (await Promise.all(networks.map((n) => source.names(n, keys, options)))).flatMap((m) => [...m.values()]);
      const byName = new Map<string, SourceName[]>();
      for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
      const found = new Map<string, SourceName>();
      for (const [name, list] of byName) found.set(name, preferredNetwork(list) as SourceName);
      return found;
    });
  }

  primaryNames(
    network: MnsNetwork,
    addresses: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourcePrimaryName>> {
    return this.inOrder(addresses, (s, keys) => s.primaryNames(network, keys, options));
  }

  /** Records of names, each asked of the source that answered it. */
  records(
    network: MnsNetwork,
    names: readonly { key: string; source: string }[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, NameRecords>> {
    return this.bySource(names, (s, keys) => s.records(network, keys, options));
  }

  /** Sub-names of names, each asked of the source that answered it. */
  subNames(
    network: MnsNetwork,
    parents: readonly { key: string; source: string }[],
    limit: number,
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceSubName[]>> {
    return this.bySource(parents, (s, keys) => s.subNames(network, keys, limit, options));
  }

  chainAddresses(
    caip2Id: string,
    networks: readonly MnsNetwork[],
    names: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceChainAddress>> {
    return this.inOrder(names, (s, keys) => s.chainAddresses(caip2Id, networks, keys, options));
  }

  /** Names starting with `prefix` from every source that can list them, in name order. */
  async namesByPrefix(prefix: string, limit: number, options?: SourceOptions): Promise<string[]> {
    const lists = await Promise.all(this.list.map((s) => s.namesByPrefix?.(prefix, limit, options) ?? []));
    return [...new Set(lists.flat())].sort().slice(0, limit);
  }
}

/**
 * The sources the environment configures, in the order they are asked: the local registry (operator
 * overrides, private deployments), then the upstream public API when `MNS_UPSTREAM_URL` is set. A chain
 * reader goes last: `new MnsSources([...mnsSourcesFromConfig(config, db), chainSource])`, or appended here.
 */
export function mnsSourcesFromConfig(
  config: Config,
  db: Pick<Database, 'query' | 'queryRows' | 'dialect'>,
): MnsSource[] {
  const sources: MnsSource[] = [createRegistrySource(db)];
  const { upstream } = config.mns;
  if (upstream.url) {
    sources.push(
      createUpstreamSource({
        baseUrl: upstream.url,
        timeoutMs: config.providerTimeoutMs,
        maxBodyBytes: config.upstreamMaxBodyBytes,
        cacheTtlMs: upstream.cacheTtlSeconds * 1000,
        cacheMaxEntries: upstream.cacheMaxEntries,
      }),
    );
  }
  const chain = chainReaderFromConfig(config);
  if (chain) sources.push(chain.source());
  return sources;
}
