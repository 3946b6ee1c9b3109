import type { Database } from '../../db/orm.js';
import type { NameRecord, NamingProvider, NamingProviderInfo } from '../../providers/naming/types.js';
import { enabled } from '../../providers/status.js';
import { normalizeMoveAddress } from './address.js';
import { InvalidNameError, normalizeMnsName } from './name.js';
import { caip2IdOf, MNS_NETWORKS, type MnsNetwork } from './networks.js';
import { findNames, findNamesByPrefix, findPrimaryNames, type MnsName } from './store.js';

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
export function preferred(rows: readonly MnsName[]): MnsName | null {
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
  const lookup = async (name: string): Promise<MnsName | null> => {
    let normalized: string;
    try {
      normalized = normalizeMnsName(name);
    } catch (err) {
      // A string that cannot be an MNS name is simply not one.
      if (err instanceof InvalidNameError) return null;
      throw err;
    }
    const rows = await Promise.all(networks.map((n) => findNames(db, n, [normalized])));
    return preferred(rows.flat());
  };
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
    async candidates(prefix, limit) {
      const p = prefix.trim().normalize('NFC').toLowerCase();
      return p === '' || limit <= 0 ? [] : findNamesByPrefix(db, p, limit);
    },
  };
}
