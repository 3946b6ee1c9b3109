import DataLoader from 'dataloader';
import { perRequest, type RequestContext } from '../../platform/graphql/context.js';
import { MNS_NETWORKS, type MnsNetwork } from './registry/networks.js';
import { answerAt } from './sources/found-in-order.js';
import type { NameRecords, SourceChainAddress, SourceName, SourcePrimaryName, SourceSubName } from './sources/index.js';
import { MAX_KEYS_PER_QUERY, queryChunks } from './sources/query-chunks.js';

/** Sub-names listed per name in an address resolution. */
export const SUB_NAMES_LIMIT = 100;

const SEP = '\u0000';
const loaderKey = (partition: string, value: string): string => `${partition}${SEP}${value}`;
/** `loaderKey`'s partition and value. */
const splitKey = (key: string): [string, string] => {
  const at = key.indexOf(SEP);
  return [key.slice(0, at), key.slice(at + 1)];
};

/** A question as asked of a source (at most MAX_KEYS_PER_QUERY keys), with what the source found. */
interface Chunk<V> {
  readonly asked: readonly string[];
  readonly found: ReadonlyMap<string, V>;
}

/** The answer for the `index`-th value of a partition's group, from its chunks as queryChunks cut it. */
function answerIn<V>(answered: readonly Chunk<V>[] | undefined, index: number): V | undefined {
  const chunk = answered?.[Math.floor(index / MAX_KEYS_PER_QUERY)];
  return chunk && answerAt(chunk.asked, chunk.found, index % MAX_KEYS_PER_QUERY);
}

/** Many values on several partitions as one loader key, answered with the first partition that knows each. */
interface FirstOfEach {
  readonly partitions: readonly string[];
  readonly values: readonly string[];
}

/**
 * A loader over one partitioned lookup (by network, or by chain id): the keys collected in one tick are
 * grouped by partition and each group costs one question per source and MAX_KEYS_PER_QUERY keys.
 *
 * A whole batch (`firstOfEach`) is a single DataLoader key: a 1000-address batch costs one promise
 * instead of one per address and network (each with its key and cache entry), and it still shares its statements with every other lookup of the tick.
 * An answer that is a `FoundInOrder` of the very list asked is read by position (`answerAt`), so a
 * batch's keys are never hashed on the way back.
 */
export class PartitionedLoader<V> {
  readonly #loader: DataLoader<string | FirstOfEach, V | V[]>;
  /** What whole batches found, by partition, so later single loads of the request do not ask again. */
  readonly #found = new Map<string, ReadonlyMap<string, V>[]>();

  constructor(
    private readonly fetch: (partition: string, values: readonly string[]) => Promise<ReadonlyMap<string, V>>,
    private readonly missing: V,
  ) {
    this.#loader = new DataLoader<string | FirstOfEach, V | V[]>(
      (keys) => {
        const [only] = keys;
        // One lookup (a request asking one name or address): its one question, without the grouping below.
        if (keys.length === 1 && typeof only === 'string') {
          const [partition, value] = splitKey(only);
          const asked = [value];
          return fetch(partition, asked).then((found) => [answerAt(asked, found, 0) ?? missing]);
        }
        return this.#many(keys);
      },
      // A full batch on every network (a 1000-item `*` request) is still one batch: one query per network.
      { maxBatchSize: MAX_KEYS_PER_QUERY * MNS_NETWORKS.length },
    );
  }

  async #many(keys: readonly (string | FirstOfEach)[]): Promise<(V | V[])[]> {
    const { fetch, missing } = this;
    const groups = new Map<string, string[]>();
    const values = (partition: string): string[] => {
      let group = groups.get(partition);
      if (!group) {
        group = [];
        groups.set(partition, group);
      }
      return group;
    };
    // Each key's place in its partitions' groups: a single's index, a batch's first index per partition.
    const singles: ([string, string] | undefined)[] = [];
    const places: (number | number[])[] = [];
    for (const key of keys) {
      if (typeof key === 'string') {
        const single = splitKey(key);
        const group = values(single[0]);
        singles.push(single);
        places.push(group.length);
        group.push(single[1]);
      } else {
        singles.push(undefined);
        places.push(
          key.partitions.map((partition) => {
            const group = values(partition);
            const start = group.length;
            const batch = key.values;
            for (let i = 0; i < batch.length; i++) group.push(batch[i] as string);
            return start;
          }),
        );
      }
    }
    // Each partition's chunks as asked (MAX_KEYS_PER_QUERY keys each), with what they found.
    const fetched = new Map<string, Chunk<V>[]>();
    const questions = [...groups].flatMap(([partition, group]) => {
      const chunks = queryChunks(group);
      const answered = new Array<Chunk<V>>(chunks.length);
      fetched.set(partition, answered);
      return chunks.map((asked, c) =>
        fetch(partition, asked).then((found) => {
          answered[c] = { asked, found };
        }),
      );
    });
    // One question (a request's lookups on one network): awaited as it is, not through a Promise.all.
    await (questions.length === 1 ? questions[0] : Promise.all(questions));
    let many = false;
    const answers = keys.map((key, k) => {
      const single = singles[k];
      if (single) return answerIn(fetched.get(single[0]), places[k] as number) ?? missing;
      many = true;
      const { partitions, values } = key as FirstOfEach;
      const starts = places[k] as number[];
      const answered = partitions.map((partition) => fetched.get(partition));
      return values.map((_, j) => {
        for (let p = 0; p < answered.length; p++) {
          const found = answerIn(answered[p], (starts[p] as number) + j);
          if (found !== undefined) return found;
        }
        return missing;
      });
    });
    if (many)
      for (const [partition, answered] of fetched)
        this.#found.set(partition, [...(this.#found.get(partition) ?? []), ...answered.map((chunk) => chunk.found)]);
    return answers;
  }

  /** The answer for `value` on `partition` (`missing` when there is none). */
  load(partition: string, value: string): Promise<V> {
    const batches = this.#found.get(partition);
    if (batches)
      for (const known of batches) {
        const answer = known.get(value);
        if (answer !== undefined) return Promise.resolve(answer);
      }
    return this.#loader.load(loaderKey(partition, value)) as Promise<V>;
  }

  /**
   * For each of `values`, the answer of the first of `partitions` that has one (mainnet first), else
   * `missing`; all in one key of the current batch.
   */
  firstOfEach(partitions: readonly string[], values: readonly string[]): Promise<V[]> {
    if (values.length === 0) return Promise.resolve([]);
    return this.#loader.load({ partitions, values }) as Promise<V[]>;
  }

  /**
   * `firstOfEach` for one value, as one cached key per partition: a lookup repeated by another field of
   * the operation is answered from the request's cache.
   */
  first(partitions: readonly string[], value: string): Promise<V> {
    // One network (a lookup that names its caip2Id): its load's own promise, with nothing wrapped around it.
    if (partitions.length === 1) return this.load(partitions[0] as string, value);
    return Promise.all(partitions.map((p) => this.load(p, value))).then((answers) => {
      for (const answer of answers) if (answer !== this.missing) return answer;
      return this.missing;
    });
  }
}

export interface ResolutionLoaders {
  /**
   * Live name by network and normalized name, from the first source that knows it. Shared by
   * owner and metadata lookups, so an operation asking both still costs one question per network.
   */
  names: PartitionedLoader<SourceName | null>;
  /** Live primary name by network and normalized address. */
  primaryNames: PartitionedLoader<SourcePrimaryName | null>;
  /** Records by network and name, of names whose source did not send them with the name. */
  records: PartitionedLoader<NameRecords | null>;
  /** Live sub-names by network and parent name, from the source that answered the parent. */
  subNames: PartitionedLoader<SourceSubName[]>;
  /** A name's address on another chain, by caip2Id and name, over every Movement network. */
  chainAddresses: PartitionedLoader<SourceChainAddress | null>;
}

/**
 * One request's loaders, each made on first use: most requests use one of them. Getters on the class
 * rather than on a per-request object literal, which would build an accessor pair and a closure per
 * loader, per request.
 */
class RequestLoaders implements ResolutionLoaders {
  private made: {
    names?: PartitionedLoader<SourceName | null>;
    primaryNames?: PartitionedLoader<SourcePrimaryName | null>;
    records?: PartitionedLoader<NameRecords | null>;
    subNames?: PartitionedLoader<SourceSubName[]>;
    chainAddresses?: PartitionedLoader<SourceChainAddress | null>;
  } = {};

  constructor(private readonly mns: RequestContext['services']['mns']) {}

  get names() {
    this.made.names ??= new PartitionedLoader((network, values) => this.mns.names(network as MnsNetwork, values), null);
    return this.made.names;
  }

  get primaryNames() {
    this.made.primaryNames ??= new PartitionedLoader(
      (network, values) => this.mns.primaryNames(network as MnsNetwork, values),
      null,
    );
    return this.made.primaryNames;
  }

  get records() {
    this.made.records ??= new PartitionedLoader(
      async (network, values) => this.mns.records(network as MnsNetwork, await this.known(network, values)),
      null,
    );
    return this.made.records;
  }

  get subNames() {
    this.made.subNames ??= new PartitionedLoader<SourceSubName[]>(
      async (network, values) =>
        this.mns.subNames(network as MnsNetwork, await this.known(network, values), SUB_NAMES_LIMIT),
      [],
    );
    return this.made.subNames;
  }

  get chainAddresses() {
    this.made.chainAddresses ??= new PartitionedLoader(
      (caip2Id, values) => this.mns.chainAddresses(caip2Id, MNS_NETWORKS, values),
      null,
    );
    return this.made.chainAddresses;
  }

  /** Sub-names and records are asked of the source that answered the name, which this request knows. */
  private async known(network: string, values: readonly string[]) {
    const rows = await Promise.all(
      values.map((v) => this.names.load(network, v).then((row) => (row ? { key: v, source: row.source } : null))),
    );
    return rows.filter((k): k is { key: string; source: string } => k !== null);
  }
}

/** The request's loaders. One set per request, so every lookup of a request sees the same answers. */
export function resolutionLoaders(ctx: RequestContext): ResolutionLoaders {
  return perRequest(ctx, 'resolution.loaders', () => new RequestLoaders(ctx.services.mns));
}
