import DataLoader from 'dataloader';
import { perRequest, type RequestContext } from '../../platform/graphql/context.js';
import { MNS_NETWORKS, type MnsNetwork } from './registry/networks.js';
import {
  findNames,
  findPrimaryNames,
  findSubNames,
  type MnsName,
  type MnsPrimaryName,
  type SubName,
} from './registry/store.js';

/** Keys above this are split into further queries, bounding the statement size. */
export const MAX_KEYS_PER_QUERY = 1000;
/** Sub-names listed per name in an address resolution. */
export const SUB_NAMES_LIMIT = 100;

const SEP = '\u0000';
export const loaderKey = (network: MnsNetwork, value: string): string => `${network}${SEP}${value}`;

/**
 * A loader over one network-partitioned lookup: the keys collected in one tick are grouped by network
 * and each group costs one query per MAX_KEYS_PER_QUERY keys.
 */
function byNetwork<V>(
  fetch: (network: MnsNetwork, values: string[]) => Promise<Map<string, V>>,
  missing: V,
): DataLoader<string, V> {
  return new DataLoader<string, V>(
    async (keys) => {
      const groups = new Map<MnsNetwork, string[]>();
      for (const key of keys) {
        const at = key.indexOf(SEP);
        const network = key.slice(0, at) as MnsNetwork;
        const values = groups.get(network) ?? [];
        values.push(key.slice(at + 1));
        groups.set(network, values);
      }
      const found = new Map<string, V>();
      const queries: Promise<void>[] = [];
      for (const [network, values] of groups) {
        for (let i = 0; i < values.length; i += MAX_KEYS_PER_QUERY) {
          const chunk = values.slice(i, i + MAX_KEYS_PER_QUERY);
          queries.push(
            fetch(network, chunk).then((results) => {
              for (const [value, result] of results) found.set(loaderKey(network, value), result);
            }),
          );
        }
      }
      await Promise.all(queries);
      return keys.map((k) => (found.has(k) ? (found.get(k) as V) : missing));
    },
    // A full batch on every network (a 1000-item `*` request) is still one batch: one query per network.
    { maxBatchSize: MAX_KEYS_PER_QUERY * MNS_NETWORKS.length },
  );
}

export interface ResolutionLoaders {
  /**
   * Live name by `loaderKey(network, normalisedName)`. Shared by owner and metadata lookups, so an
   * operation asking both still costs one query per network; the rows decode their JSON records only
   * when a metadata field reads them.
   */
  names: DataLoader<string, MnsName | null>;
  /**
   * Live primary name by `loaderKey(network, normalisedAddress)`: only the columns a reverse lookup
   * answers with, because decoding the records of every row took about 9 % of a 1000-address batch.
   */
  primaryNames: DataLoader<string, MnsPrimaryName | null>;
  /** Live sub-names by `loaderKey(network, parentName)`. */
  subNames: DataLoader<string, SubName[]>;
}

/** The request's loaders. One clock per request, so every lookup of a request agrees on what has expired. */
export function resolutionLoaders(ctx: RequestContext): ResolutionLoaders {
  return perRequest(ctx, 'resolution.loaders', () => {
    const db = ctx.services.db;
    const now = new Date();
    return {
      names: byNetwork(
        async (network, names) => new Map((await findNames(db, network, names, now)).map((r) => [r.name, r])),
        null,
      ),
      primaryNames: byNetwork(
        async (network, owners) =>
          new Map((await findPrimaryNames(db, network, owners, now)).map((r) => [r.ownerKey, r])),
        null,
      ),
      subNames: byNetwork(async (network, parents) => {
        const grouped = new Map<string, SubName[]>();
        for (const sub of await findSubNames(db, network, parents, SUB_NAMES_LIMIT, now)) {
          const list = grouped.get(sub.parent) ?? [];
          list.push(sub);
          grouped.set(sub.parent, list);
        }
        return grouped;
      }, []),
    };
  });
}

/** The first hit in network order (mainnet first): a name or address on several networks answers from mainnet. */
export async function loadFirst<T>(
  loader: DataLoader<string, T | null>,
  networks: readonly MnsNetwork[],
  value: string,
): Promise<T | null> {
  const rows = await loader.loadMany(networks.map((n) => loaderKey(n, value)));
  for (const row of rows) {
    if (row instanceof Error) throw row;
    if (row) return row;
  }
  return null;
}
