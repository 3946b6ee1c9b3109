import type { MoveValue } from '@aptos-labs/ts-sdk';
import type { Config } from '../../../../platform/config.js';
import { normalizeMoveAddress } from '../../registry/address.js';
import { InvalidNameError, MNS_SUFFIX, normalizeMnsName } from '../../registry/name.js';
import type { MnsNetwork } from '../../registry/networks.js';
import type { MnsSource, NameRecords, SourceName, SourceOptions, SourcePrimaryName } from '../types.js';
import { Fullnode, isMoveAbort } from './fullnode.js';

export const CHAIN_SOURCE = 'chain';

/**
 * The MNS module's view functions. Snowball documents its `movement_names` module (register_domain,
 * set_target_address, SetReverseLookupEvent) but publishes neither its address nor its view functions;
 * it derives from Aptos Names, whose router (aptos-labs/aptos-names-contracts, router/sources/router.move)
 * has these views, called the same way by `@aptos-labs/ts-sdk`'s own ANS helpers (src/internal/ans.ts):
 *   get_target_addr(domain: String, subdomain: Option<String>): Option<address>
 *   get_owner_addr(domain: String, subdomain: Option<String>): Option<address>
 *   get_expiration(domain: String, subdomain: Option<String>): u64   (aborts for an unregistered name)
 *   get_primary_name(addr: address): (Option<String> subdomain, Option<String> domain)
 * Their module and names are configuration (MNS_VIEW_FUNCTIONS), defaulting to the router's.
 */
export interface ViewFunctions {
  target: string;
  owner: string;
  expiration: string;
  primary: string;
}

/** A name as the module's functions take it: `pay.alice.snow` → domain `alice`, subdomain `pay`. */
export function moveNameArgs(name: string): { domain: string; subdomain: string | null } | null {
  if (!name.endsWith(MNS_SUFFIX)) return null;
  const labels = name.slice(0, -MNS_SUFFIX.length).split('.');
  if (labels.length === 1) return { domain: labels[0] as string, subdomain: null };
  if (labels.length === 2) return { domain: labels[1] as string, subdomain: labels[0] as string };
  return null;
}

/** The JSON form of a Move `Option` in the Aptos REST API: `{"vec": []}` or `{"vec": [value]}`. */
export const moveOption = (value: string | null): { vec: string[] } => ({ vec: value === null ? [] : [value] });

/** Reads a Move `Option` as the Aptos REST API encodes it; null for `none` or anything else. */
export function unwrapOption(value: MoveValue | undefined): string | null {
  if (value && typeof value === 'object' && 'vec' in value && Array.isArray(value.vec)) {
    const [inner] = value.vec as unknown[];
    return typeof inner === 'string' ? inner : null;
  }
  return null;
}

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
  private readonly nodes = new Map<MnsNetwork, Fullnode>();
  private readonly now: () => Date;

  constructor(private readonly options: ChainReaderOptions) {
    for (const [network, url] of Object.entries(options.rpcUrls)) {
      if (url) {
        this.nodes.set(
          network as MnsNetwork,
          new Fullnode({ url, timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes }),
        );
      }
    }
    this.now = options.now ?? (() => new Date());
  }

  get networks(): MnsNetwork[] {
    return [...this.nodes.keys()];
  }

  fullnode(network: MnsNetwork): Fullnode | undefined {
    return this.nodes.get(network);
  }

  private view(node: Fullnode, fn: string, args: unknown[], signal?: AbortSignal): Promise<MoveValue[]> {
    return node.call(signal, (aptos) =>
      aptos.viewJson({
        payload: {
          function: `${this.options.moduleAddress}::${fn}` as `${string}::${string}::${string}`,
          functionArguments: args as MoveValue[],
        },
      }),
    );
  }

  /** The target address of a name (normalized full name), null when it has none or is not registered. */
  async target(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<string | null> {
    const node = this.nodes.get(network);
    const args = moveNameArgs(name);
    if (!node || !args) return null;
    const [target] = await this.view(
      node,
      this.options.functions.target,
      [args.domain, moveOption(args.subdomain)],
      signal,
    );
    return unwrapOption(target);
  }

  /** The token owner of a name, null when it is not registered. */
  async owner(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<string | null> {
    const node = this.nodes.get(network);
    const args = moveNameArgs(name);
    if (!node || !args) return null;
    const [owner] = await this.view(
      node,
      this.options.functions.owner,
      [args.domain, moveOption(args.subdomain)],
      signal,
    );
    return unwrapOption(owner);
  }

  /** When a name expires; null when it is not registered (the view aborts). */
  async expiration(network: MnsNetwork, name: string, signal?: AbortSignal): Promise<Date | null> {
    const node = this.nodes.get(network);
    const args = moveNameArgs(name);
    if (!node || !args) return null;
    try {
      const [secs] = await this.view(
        node,
        this.options.functions.expiration,
        [args.domain, moveOption(args.subdomain)],
        signal,
      );
      // u64 arrives as a decimal string.
      return typeof secs === 'string' && /^\d+$/.test(secs) ? new Date(Number(secs) * 1000) : null;
    } catch (err) {
      if (isMoveAbort(err)) return null;
      throw err;
    }
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
    const node = this.nodes.get(network);
    if (!node) return null;
    const [sub, domain] = await this.view(node, this.options.functions.primary, [address], signal);
    const domainName = unwrapOption(domain);
    if (domainName === null) return null;
    const subName = unwrapOption(sub);
    try {
      return normalizeMnsName(subName === null ? domainName : `${subName}.${domainName}`);
    } catch (err) {
      if (err instanceof InvalidNameError) return null;
      throw err;
    }
  }

  /** The reader behind the sources interface (`MnsSources` asks it after the registry and upstream). */
  source(): MnsSource {
    const concurrency = this.options.concurrency ?? 8;
    const names = async (network: MnsNetwork, wanted: readonly string[], options?: SourceOptions) => {
      if (!this.nodes.has(network)) return new Map<string, SourceName>();
      const found = await mapLimit(wanted, concurrency, (n) => this.forward(network, n, options?.signal));
      return new Map(found.filter((f): f is SourceName => f !== null).map((f) => [f.name, f]));
    };
    return {
      name: CHAIN_SOURCE,
      names,
      primaryNames: async (network, addresses, options) => {
        const out = new Map<string, SourcePrimaryName>();
        if (!this.nodes.has(network)) return out;
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
