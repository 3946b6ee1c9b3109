import type { Database } from '../../platform/db/orm.js';
import { enabled } from '../../platform/upstream/status.js';
import type { NameRecord, NamingProvider, NamingProviderInfo } from '../identity/index.js';
import { normalizeMoveAddress } from './registry/address.js';
import { InvalidNameError, normalizeMnsName } from './registry/name.js';
import { caip2IdOf, MNS_NETWORKS, type MnsNetwork, preferredNetwork } from './registry/networks.js';
import { createRegistrySource, MnsSources, type SourceName } from './sources/index.js';

/**
 * MNS is the operator's own naming service (Snowball's Modular Naming Service, `.snow` names on
 * Movement); the name, site and logo are the ones its public documentation uses.
 */
export const MNS_INFO: NamingProviderInfo = {
  provider: 'mns',
  source: 'mns',
  providerName: 'Modular Naming Service',
  logoURI: 'https://www.modular.name/favicon.ico',
  url: 'https://www.modular.name',
  caip2Id: caip2IdOf('126'),
  suffixes: ['.snow'],
};

/**
 * The MNS naming provider (identity's `NamingProvider`, which identity search asks beside ENS, Basenames
 * and SNS) over the MNS sources (local registry, upstream API, chain, in that order), so
 * search finds bare labels and `.snow` names wherever the resolution endpoints find them. Given a
 * database handle, it reads the local registry alone. A name on several Movement networks answers with
 * its mainnet record; expired names do not resolve. Always enabled: the registry is the service's own.
 */
export function createMnsProvider(
  from: Pick<Database, 'query' | 'queryRows' | 'dialect'> | MnsSources,
  networks: readonly MnsNetwork[] = MNS_NETWORKS,
): NamingProvider {
  const sources = from instanceof MnsSources ? from : new MnsSources([createRegistrySource(from)]);
  // A string that cannot be an MNS name is simply not one: null, never an error.
  const normalizeOrNull = (name: string): string | null => {
    try {
      return normalizeMnsName(name);
    } catch (err) {
      if (err instanceof InvalidNameError) return null;
      throw err;
    }
  };
  /** The answering registration of each of `names`, in input order; one question per source for all. */
  const lookupMany = async (names: readonly string[], signal?: AbortSignal): Promise<(SourceName | null)[]> => {
    const normalized = names.map(normalizeOrNull);
    const wanted = [...new Set(normalized.filter((n): n is string => n !== null))];
    const found = wanted.length ? await sources.namesAcross(networks, wanted, { signal }) : new Map();
    return normalized.map((n) => (n === null ? null : (found.get(n) ?? null)));
  };
  /** Full records; names whose source sent no records with the name cost one records question per network. */
  const toRecords = async (
    rows: readonly (SourceName | null)[],
    signal?: AbortSignal,
  ): Promise<(NameRecord | null)[]> => {
    const lacking = rows.filter((r): r is SourceName => r !== null && r.records === null);
    const fetched = new Map<string, SourceName['records']>();
    await Promise.all(
      networks.map(async (network) => {
        const here = lacking.filter((r) => r.network === network).map((r) => ({ key: r.name, source: r.source }));
        if (!here.length) return;
        for (const [name, records] of await sources.records(network, here, { signal })) {
          fetched.set(`${network}\u0000${name}`, records);
        }
      }),
    );
    return rows.map((row) => {
      if (!row) return null;
      const records = row.records ?? fetched.get(`${row.network}\u0000${row.name}`);
      return {
        name: row.name,
        ownerAddress: row.owner,
        caip2Id: caip2IdOf(row.network),
        avatar: records?.avatar ?? null,
        expireAt: row.expireAt,
        registeredAt: row.registeredAt,
        multichainAddresses: records?.multichainAddresses ?? [],
        txtRecords: records?.txtRecords ?? [],
      };
    });
  };
  return {
    info: MNS_INFO,
    status: enabled,
    normalize: normalizeMnsName,
    async resolve(name, options) {
      return (await lookupMany([name], options?.signal))[0]?.owner ?? null;
    },
    async reverse(address, options) {
      const key = normalizeMoveAddress(address);
      if (!key) return null;
      const rows = await Promise.all(
        networks.map(async (n) => (await sources.primaryNames(n, [key], { signal: options?.signal })).get(key)),
      );
      return preferredNetwork(rows.filter((r) => r !== undefined))?.name ?? null;
    },
    async records(name, options) {
      const [record] = await toRecords(await lookupMany([name], options?.signal), options?.signal);
      return record ?? null;
    },
    // A search page lists up to 50 names; this reads them in one question per source instead of one
    // per name and network.
    async recordsMany(names, options) {
      return toRecords(await lookupMany(names, options?.signal), options?.signal);
    },
    async candidates(prefix, limit, options) {
      const p = prefix.trim().normalize('NFC').toLowerCase();
      return p === '' || limit <= 0 ? [] : sources.namesByPrefix(p, limit, { signal: options?.signal });
    },
  };
}
