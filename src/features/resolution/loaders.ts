import DataLoader from 'dataloader';
import { perRequest, type RequestContext } from '../../platform/graphql/context.js';
import { MNS_NETWORKS, type MnsNetwork } from './registry/networks.js';
import type { NameRecords, SourceChainAddress, SourceName, SourcePrimaryName, SourceSubName } from './sources/index.js';

/** Keys above this are split into further queries, bounding the statement (and upstream batch) size. */
export const MAX_KEYS_PER_QUERY = 1000;
/** Sub-names listed per name in an address resolution. */
export const SUB_NAMES_LIMIT = 100;

const SEP = '\u0000';
export const loaderKey = (network: string, value: string): string => `${network}${SEP}${value}`;
const splitKey = (key: string): [string, string] => {
  const at = key.indexOf(SEP);
  return [key.slice(0, at), key.slice(at + 1)];
};

/**
 * A loader over one partitioned lookup (by network, or by chain id): the keys collected in one tick are
 * grouped by partition and each group costs one question per source and MAX_KEYS_PER_QUERY keys.
 */
function partitioned<V>(
  fetch: (partition: string, values: string[]) => Promise<Map<string, V>>,
  missing: V,
): DataLoader<string, V> {
  return new DataLoader<string, V>(
    async (keys) => {
      // Each partition's values, and where each sits among `keys`, so answers go back by position.
      const groups = new Map<string, { values: string[]; at: number[] }>();
      for (let k = 0; k < keys.length; k++) {
        const [partition, value] = splitKey(keys[k] as string);
        let group = groups.get(partition);
        if (!group) {
          group = { values: [], at: [] };
          groups.set(partition, group);
        }
        group.values.push(value);
        group.at.push(k);
      }
      const answers = new Array<V>(keys.length).fill(missing);
      const queries: Promise<void>[] = [];
      for (const [partition, { values, at }] of groups) {
        for (let i = 0; i < values.length; i += MAX_KEYS_PER_QUERY) {
          const chunk = values.slice(i, i + MAX_KEYS_PER_QUERY);
          queries.push(
            fetch(partition, chunk).then((results) => {
              for (let j = 0; j < chunk.length; j++) {
                const value = chunk[j] as string;
                if (results.has(value)) answers[at[i + j] as number] = results.get(value) as V;
              }
            }),
          );
        }
      }
      await Promise.all(queries);
      return answers;
    },
    // A full batch on every network (a 1000-item `*` request) is still one batch: one query per network.
    { maxBatchSize: MAX_KEYS_PER_QUERY * MNS_NETWORKS.length },
  );
}

export interface ResolutionLoaders {
  /**
   * Live name by `loaderKey(network, normalizedName)`, from the first source that knows it. Shared by
   * owner and metadata lookups, so an operation asking both still costs one question per network.
   */
  names: DataLoader<string, SourceName | null>;
  /** Live primary name by `loaderKey(network, normalizedAddress)`. */
  primaryNames: DataLoader<string, SourcePrimaryName | null>;
  /** Records by `loaderKey(network, name)` of names whose source did not send them with the name. */
  records: DataLoader<string, NameRecords | null>;
  /** Live sub-names by `loaderKey(network, parentName)`, from the source that answered the parent. */
  subNames: DataLoader<string, SourceSubName[]>;
  /** A name's address on another chain by `loaderKey(caip2Id, name)`, over every Movement network. */
  chainAddresses: DataLoader<string, SourceChainAddress | null>;
}

/**
 * One request's loaders, each made on first use: most requests use one of them. Getters on the class
 * rather than on a per-request object literal, which cost a lookup ~5 % of its CPU (an accessor pair
 * and a closure per loader, per request).
 */
class RequestLoaders implements ResolutionLoaders {
  private made: {
    names?: DataLoader<string, SourceName | null>;
    primaryNames?: DataLoader<string, SourcePrimaryName | null>;
    records?: DataLoader<string, NameRecords | null>;
    subNames?: DataLoader<string, SourceSubName[]>;
    chainAddresses?: DataLoader<string, SourceChainAddress | null>;
  } = {};

  constructor(private readonly mns: RequestContext['services']['mns']) {}

  get names() {
    this.made.names ??= partitioned((network, values) => this.mns.names(network as MnsNetwork, values), null);
    return this.made.names;
  }

  get primaryNames() {
    this.made.primaryNames ??= partitioned(
      (network, values) => this.mns.primaryNames(network as MnsNetwork, values),
      null,
    );
    return this.made.primaryNames;
  }

  get records() {
    this.made.records ??= partitioned(
      async (network, values) => this.mns.records(network as MnsNetwork, await this.known(network, values)),
      null,
    );
    return this.made.records;
  }

  get subNames() {
    this.made.subNames ??= partitioned<SourceSubName[]>(
      async (network, values) =>
        this.mns.subNames(network as MnsNetwork, await this.known(network, values), SUB_NAMES_LIMIT),
      [],
    );
    return this.made.subNames;
  }

  get chainAddresses() {
    this.made.chainAddresses ??= partitioned(
      (caip2Id, values) => this.mns.chainAddresses(caip2Id, MNS_NETWORKS, values),
      null,
    );
    return this.made.chainAddresses;
  }

  /** Sub-names and records are asked of the source that answered the name, which this request knows. */
  private async known(network: string, values: string[]) {
    const rows = await Promise.all(
      values.map((v) =>
        this.names.load(loaderKey(network, v)).then((row) => (row ? { key: v, source: row.source } : null)),
      ),
    );
    return rows.filter((k): k is { key: string; source: string } => k !== null);
  }
}

/** The request's loaders. One set per request, so every lookup of a request sees the same answers. */
export function resolutionLoaders(ctx: RequestContext): ResolutionLoaders {
  return perRequest(ctx, 'resolution.loaders', () => new RequestLoaders(ctx.services.mns));
}

/** The first hit in network order (mainnet first): a name or address on several networks answers from mainnet. */
export async function loadFirst<T>(
  loader: DataLoader<string, T | null>,
  networks: readonly MnsNetwork[],
  value: string,
): Promise<T | null> {
  return (await loadFirstOfEach(loader, networks, [value]))[0] ?? null;
}

/**
 * `loadFirst` for every value of a batch, in one pass: a 1000-address batch then costs one promise per
 * key instead of a promise chain per address (about a tenth of the batch's CPU).
 */
export async function loadFirstOfEach<T>(
  loader: DataLoader<string, T | null>,
  networks: readonly MnsNetwork[],
  values: readonly string[],
): Promise<(T | null)[]> {
  const keys: string[] = [];
  for (const value of values) for (const network of networks) keys.push(loaderKey(network, value));
  // Not loadMany: it turns each key's failure into a value with one more promise per key, and any
  // failure fails the batch here anyway.
  const rows = await Promise.all(keys.map((key) => loader.load(key)));
  const first: (T | null)[] = [];
  for (let i = 0; i < values.length; i++) {
    let found: T | null = null;
    for (let n = 0; n < networks.length; n++) {
      const row = rows[i * networks.length + n];
      if (row) {
        found = row;
        break;
      }
    }
    first.push(found);
  }
  return first;
}
