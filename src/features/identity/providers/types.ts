import type { ProviderStatus } from '../../../platform/upstream/status.js';

/** Type of a text record. The spec shows social, url and email; every other key is plain text. */
export type TxtRecordType = 'social' | 'url' | 'email' | 'text';

export interface TxtRecord {
  key: string;
  value: string;
  type: TxtRecordType;
}

export interface ChainAddress {
  address: string;
  caip2Id: string;
}

/** What a naming service holds for one name. Chain name and symbol are added by the identity subgraph. */
export interface NameRecord {
  /** Normalized full name, e.g. `alice.snow`, `vitalik.eth`. */
  name: string;
  /** The address the name resolves to on its own chain; null when the name is registered but unset. */
  ownerAddress: string | null;
  /** Chain on which the name lives. */
  caip2Id: string;
  avatar: string | null;
  expireAt: Date | null;
  registeredAt: Date | null;
  multichainAddresses: ChainAddress[];
  txtRecords: TxtRecord[];
}

/** Constant description of a naming service, copied into every identity result it produces. */
export interface NamingProviderInfo {
  /** Stable identifier, e.g. `mns`, `ens`, `basenames`, `sns`. */
  provider: string;
  /** Naming service identifier, e.g. `mns`, `ens`, `sns`. */
  source: string;
  providerName: string;
  logoURI: string;
  url: string;
  caip2Id: string;
  /** Name suffixes this provider owns, longest first (`.base.eth` before `.eth`). */
  suffixes: string[];
  /**
   * EVM chains (CAIP-2) whose primary names this provider holds, when they are more than `caip2Id`
   * (SPACE ID keeps `.bnb` on BNB Chain and `.arb` on Arbitrum); `[caip2Id]` when absent.
   */
  reverseCaip2Ids?: readonly string[];
}

export interface LookupOptions {
  /** Aborted when the per-provider timeout passes or the request ends. */
  signal?: AbortSignal;
}

export interface ReverseOptions extends LookupOptions {
  /**
   * ENSIP-9/11 coin type of the chain whose primary name is asked for (ENSIP-19); the provider's own
   * chain when absent. Providers without per-chain primary names ignore it.
   */
  coinType?: number;
}

/**
 * One naming service. Implementations live in one folder each (`providers/naming/<name>/`).
 * Every method takes a full, already lower-cased name and resolves to null when there is nothing;
 * an upstream failure throws `UpstreamError`.
 */
export interface NamingProvider {
  readonly info: NamingProviderInfo;
  readonly status: ProviderStatus;
  /** Normalizes a full name the way the service does (ENSIP-15 for ENS); throws on an invalid name. */
  normalize(name: string): string;
  /** Forward resolution: the address the name points to on its own chain. */
  resolve(name: string, options?: LookupOptions): Promise<string | null>;
  /** Reverse resolution: the primary name of an address, verified forward. */
  reverse(address: string, options?: ReverseOptions): Promise<string | null>;
  /** Everything the service holds for a name: owner, records, chain addresses, times. */
  records(name: string, options?: LookupOptions): Promise<NameRecord | null>;
  /**
   * Optional batch form of `records`: the answers for `names`, in the same order (null where `records`
   * would answer null). A provider implements it when it can read many names in one round trip (a
   * local registry); callers fall back to one `records` call per name when it is missing.
   */
  recordsMany?(names: readonly string[], options?: LookupOptions): Promise<(NameRecord | null)[]>;
  /** Names starting with `prefix` that the provider can list (local registries only; others return []). */
  candidates(prefix: string, limit: number, options?: LookupOptions): Promise<string[]>;
}
