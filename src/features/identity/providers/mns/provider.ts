import type { Database } from '../../../../platform/db/orm.js';
import { enabled } from '../../../../platform/upstream/status.js';
import { normalizeMoveAddress } from '../../../resolution/registry/address.js';
import { InvalidNameError, normalizeMnsName } from '../../../resolution/registry/name.js';
import { caip2IdOf, MNS_NETWORKS, type MnsNetwork } from '../../../resolution/registry/networks.js';
import { findNamesByPrefix, findNamesOn, findPrimaryNames, type MnsName } from '../../../resolution/registry/store.js';
import type { NameRecord, NamingProvider, NamingProviderInfo } from '../types.js';

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

/** Of one name's rows on several networks, the one that answers: mainnet wins. */
export function preferred<T extends Pick<MnsName, 'network'>>(rows: readonly T[]): T | null {
  for (const network of MNS_NETWORKS) {
    const row = rows.find((r) => r.network === network);
    if (row) return row;
  }
  return null;
}

export function toNameRecord(row: MnsName): NameRecord {
  return {
    name: row.name,
    ownerAddress: row.owner,
    caip2Id: caip2IdOf(row.network),
    avatar: row.avatar,
    expireAt: row.expireAt,
    registeredAt: row.registeredAt,
    multichainAddresses: row.multichainAddresses,
    txtRecords: row.txtRecords,
  };
}

/**
 * The MNS naming provider over the registry table. Its upstream is the service's own database, so it is
 * always enabled. A name on several Movement networks answers with its mainnet record; expired names do
 * not resolve.
 */
export function createMnsProvider(
  db: Pick<Database, 'query'>,
  networks: readonly MnsNetwork[] = MNS_NETWORKS,
): NamingProvider {
  // A string that cannot be an MNS name is simply not one: null, never an error.
  const normalizeOrNull = (name: string): string | null => {
    try {
      return normalizeMnsName(name);
    } catch (err) {
      if (err instanceof InvalidNameError) return null;
      throw err;
    }
  };
  /** The answering row of each of `names`, in input order; one query for all names and networks. */
  const lookupMany = async (names: readonly string[]): Promise<(MnsName | null)[]> => {
    const normalized = names.map(normalizeOrNull);
    const wanted = [...new Set(normalized.filter((n): n is string => n !== null))];
    const byName = new Map<string, MnsName[]>();
    for (const row of await findNamesOn(db, networks, wanted)) {
      const rows = byName.get(row.name);
      if (rows) rows.push(row);
      else byName.set(row.name, [row]);
    }
    return normalized.map((n) => (n === null ? null : preferred(byName.get(n) ?? [])));
  };
  const lookup = async (name: string): Promise<MnsName | null> => (await lookupMany([name]))[0] ?? null;
  return {
    info: MNS_INFO,
    status: enabled,
    normalize: normalizeMnsName,
    async resolve(name) {
      return (await lookup(name))?.owner ?? null;
    },
    async reverse(address) {
      const key = normalizeMoveAddress(address);
      if (!key) return null;
      const rows = await Promise.all(networks.map((n) => findPrimaryNames(db, n, [key])));
      return preferred(rows.flat())?.name ?? null;
    },
    async records(name) {
      const row = await lookup(name);
      return row ? toNameRecord(row) : null;
    },
    // A search page lists up to 50 registry names; this reads them in one statement instead of one
    // per name and network.
    async recordsMany(names) {
      return (await lookupMany(names)).map((row) => (row ? toNameRecord(row) : null));
    },
    async candidates(prefix, limit) {
      const p = prefix.trim().normalize('NFC').toLowerCase();
      return p === '' || limit <= 0 ? [] : findNamesByPrefix(db, p, limit);
    },
  };
}
