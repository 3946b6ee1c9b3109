import type { ChainAddress, TxtRecord } from '../../identity/index.js';
import type { MnsNetwork } from '../registry/networks.js';

/**
 * Where MNS names come from. Every source answers the same questions, for one Movement network and a
 * batch of keys at a time (a DataLoader batch), and leaves out of its answer every key it does not know;
 * `MnsSources` asks them in order (local registry, upstream API, chain) and each key is answered by the
 * first source that knows it. A source that cannot be reached throws (an `UpstreamUnavailableError`),
 * which fails the lookup as a 503 rather than being read as "not found".
 */
export interface MnsSource {
  /** Provenance, carried by every answer (`registry`, `upstream`, `chain`, …). */
  readonly name: string;

  /** Live registrations among `names` (normalized full names) on `network`, keyed by name. */
  names(
    network: MnsNetwork,
    names: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceName>>;

  /**
   * Optional: live registrations of `names` on any of `networks` in one question (a name on several
   * networks comes back once per network). Without it, `names` is asked once per network.
   */
  namesOn?(networks: readonly MnsNetwork[], names: readonly string[], options?: SourceOptions): Promise<SourceName[]>;

  /** Live primary names of `addresses` (normalized: lower-case, 0x + 64 hex digits) on `network`, keyed by address. */
  primaryNames(
    network: MnsNetwork,
    addresses: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourcePrimaryName>>;

  /**
   * Text records, avatar and chain addresses of names this source answered with `records: null`, keyed
   * by name. Only asked for names the source itself answered.
   */
  records(
    network: MnsNetwork,
    names: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, NameRecords>>;

  /** Live sub-names directly under each of `parents` (names this source answered), at most `limit` each, by name. */
  subNames(
    network: MnsNetwork,
    parents: readonly string[],
    limit: number,
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceSubName[]>>;

  /**
   * The address of each of `names` on another chain (`caip2Id` of another namespace, e.g. `eip155:1`),
   * from the name's multichain address records, keyed by name. A name the source knows but that has no
   * address for that chain is answered with `address: null`, so no later source is asked about it.
   */
  chainAddresses(
    caip2Id: string,
    networks: readonly MnsNetwork[],
    names: readonly string[],
    options?: SourceOptions,
  ): Promise<ReadonlyMap<string, SourceChainAddress>>;

  /** Live names starting with `prefix`, in name order; a source that cannot list by prefix leaves this out. */
  namesByPrefix?(prefix: string, limit: number, options?: SourceOptions): Promise<string[]>;
}

export interface SourceOptions {
  /** The caller's deadline; a source stops its upstream calls when it aborts. */
  signal?: AbortSignal;
}

export interface NameRecords {
  avatar: string | null;
  txtRecords: TxtRecord[];
  multichainAddresses: ChainAddress[];
}

export interface SourceName {
  name: string;
  network: MnsNetwork;
  /** The address the name resolves to (its target). */
  owner: string;
  resolverAddress: string | null;
  registeredAt: Date | null;
  expireAt: Date | null;
  /** The name's records when the source read them with it; null when they need a `records` call. */
  readonly records: NameRecords | null;
  /** `MnsSource.name` of the source that answered. */
  source: string;
}

/**
 * An address's primary name. Unlike a name, it names no source: nothing more is asked of the source that
 * answered (a name's records and sub-names are), and the registry hands its rows on as they are.
 */
export interface SourcePrimaryName {
  readonly name: string;
  readonly network: MnsNetwork;
  readonly owner: string;
}

export interface SourceSubName {
  name: string;
  owner: string;
}

export interface SourceChainAddress {
  /** The name's Movement target, as in any other lookup. */
  owner: string;
  /** The name's address on the chain asked for; null when it has none. */
  address: string | null;
  network: MnsNetwork;
  source: string;
}
