import type { Config } from '../../../../platform/config.js';
import { Fullnode, NameRouter, type ViewFunctions } from '../../../../platform/upstream/aptos/index.js';
import { normalizeMoveAddress } from '../../registry/address.js';
import { InvalidNameError, MNS_SUFFIX, normalizeMnsName } from '../../registry/name.js';
import type { MnsNetwork } from '../../registry/networks.js';
import type { MnsSource, NameRecords, SourceName, SourceOptions, SourcePrimaryName } from '../types.js';

export const CHAIN_SOURCE = 'chain';

/** Provider name of Movement fullnodes in errors and logs. */
export const FULLNODE = 'movement-fullnode';

/**
 * Snowball documents its `movement_names` module (register_domain, set_target_address,
 * SetReverseLookupEvent) but publishes neither its address nor its view functions; it derives from
 * Aptos Names, whose router views (`ViewFunctions`) it is read with. Their module and names are
 * configuration (MNS_VIEW_FUNCTIONS), defaulting to the router's.
 */
export type { ViewFunctions };

const NO_RECORDS: NameRecords = { avatar: null, txtRecords: [], multichainAddresses: [] };

/** Runs `fn` over `items` with at most `limit` calls in flight: a large batch must not flood a fullnode. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface ChainReaderOptions {
  /** Fullnode REST base URL per network; networks without one are not read. */
  rpcUrls: Partial<Record<MnsNetwork, string>>;
  moduleAddress: string;
  functions: ViewFunctions;
  timeoutMs: number;
  maxBodyBytes: number;
  /** View calls in flight per batch. */
  concurrency?: number;
  now?: () => Date;
}

/**
 * Reads MNS straight from the chain through the fullnode's `/v1/view`: forward (target and expiry) and
 * reverse (primary name) lookups, one view call per key. The chain holds no text records or chain
 * addresses, and cannot list names: prefix search is the indexer's job.
 */
export class ChainReader {
  private readonly routers = new Map<MnsNetwork, NameRouter>();
  private readonly now: () => Date;

  constructor(private readonly options: ChainReaderOptions) {
    for (const [network, url] of Object.entries(options.rpcUrls)) {
      if (url) {
        const node = new Fullnode({
          name: FULLNODE,
          url,
          timeoutMs: options.timeoutMs,
          maxBodyBytes: options.maxBodyBytes,
        });
        this.routers.set(
          network as MnsNetwork,
          new NameRouter(node, {
            moduleAddress: options.moduleAddress,
            functions: options.functions,
            suffix: MNS_SUFFIX,
          }),
        );
      }
    }
    this.now = options.now ?? (() => new Date());
  }

  get networks(): MnsNetwork[] {
    return [...this.routers.keys()];
  }

  fullnode(network: MnsNetwork): Fullnode | undefined {
    return this.routers.get(network)?.node;
  }

  /** The target address of a name (normalized full name), null when it has none or is not registered. */
  async target(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<string | null> {
    return (await this.routers.get(network)?.target(name, signal)) ?? null;
  }

  /** The token owner of a name, null when it is not registered. */
  async owner(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<string | null> {
    return (await this.routers.get(network)?.owner(name, signal)) ?? null;
  }

  /** When a name expires; null when it is not registered (the view aborts). */
  async expiration(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<Date | null> {
    return (await this.routers.get(network)?.expiration(name, signal)) ?? null;
  }

  /** A live name with its target, or null. */
  async forward(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<SourceName | null> {
    const owner = await this.target(network, name, signal);
    if (owner === null) return null;
    const expireAt = await this.expiration(network, name, signal);
    if (expireAt === null || expireAt <= this.now()) return null;
    return {
      name,
      network,
      owner,
      resolverAddress: null,
      registeredAt: null,
      expireAt,
      records: NO_RECORDS,
      source: CHAIN_SOURCE,
    };
  }

  /** The primary name of an address (normalized), or null. */
  async reverse(network: MnsNetwork, address: string, signal?: AbortSignal): Promise<string | null> {
    const primary = await this.routers.get(network)?.primary(address, signal);
    if (!primary) return null;
    const { domain, subdomain } = primary;
    try {
      return normalizeMnsName(subdomain === null ? domain : `${subdomain}.${domain}`);
    } catch (err) {
      if (err instanceof InvalidNameError) return null;
      throw err;
    }
  }

  /** The reader behind the sources interface (`MnsSources` asks it after the registry and upstream). */
  source(): MnsSource {
    const concurrency = this.options.concurrency ?? 8;
    const names = async (network: MnsNetwork, wanted: readonly string[], options?: SourceOptions) => {
      if (!this.routers.has(network)) return new Map<string, SourceName>();
      const found = await mapLimit(wanted, concurrency, (n) => this.forward(network, n, options?.signal));
      return new Map(found.filter((f): f is SourceName => f !== null).map((f) => [f.name, f]));
    };
    return {
      name: CHAIN_SOURCE,
      names,
      primaryNames: async (network, addresses, options) => {
        const out = new Map<string, SourcePrimaryName>();
        if (!this.routers.has(network)) return out;
        await mapLimit(addresses, concurrency, async (address) => {
          const key = normalizeMoveAddress(address);
          const name = key ? await this.reverse(network, key, options?.signal) : null;
          if (key && name) out.set(key, { name, network, owner: key });
        });
        return out;
      },
      // The chain keeps no text records, avatar or chain addresses for a name.
      records: async (_network, wanted) => new Map(wanted.map((n) => [n, NO_RECORDS])),
      subNames: async () => new Map(),
      chainAddresses: async (_caip2Id, networks, wanted, options) => {
        const out = new Map<string, { owner: string; address: null; network: MnsNetwork; source: string }>();
        for (const network of networks) {
          const left = wanted.filter((n) => !out.has(n));
          for (const [name, found] of await names(network, left, options)) {
            out.set(name, { owner: found.owner, address: null, network, source: CHAIN_SOURCE });
          }
        }
        return out;
      },
    };
  }
}

/** The chain reader the configuration asks for; null without a fullnode URL or module address. */
export function chainReaderFromConfig(config: Config): ChainReader | null {
  const { rpcUrls, moduleAddress, functions } = config.mnsChain;
  if (!moduleAddress || !Object.keys(rpcUrls).length) return null;
  return new ChainReader({
    rpcUrls: rpcUrls as Partial<Record<MnsNetwork, string>>,
    moduleAddress,
    functions,
    timeoutMs: config.providerTimeoutMs,
    maxBodyBytes: config.upstreamMaxBodyBytes,
  });
}
