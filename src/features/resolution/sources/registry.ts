import type { Database } from '../../../platform/db/orm.js';
import { type MnsNetwork, preferredNetwork } from '../registry/networks.js';
import {
  findNames,
  findNamesByPrefix,
  findNamesOn,
  findPrimaryNames,
  findSubNames,
  type MnsName,
} from '../registry/store.js';
import { FoundInOrder } from './found-in-order.js';
import { TurnBatch } from './turn-batch.js';
import type { MnsSource, NameRecords, SourceName, SourcePrimaryName, SourceSubName } from './types.js';

export const REGISTRY_SOURCE = 'registry';

/**
 * A registry row as a source answer; its JSON records are still decoded only when read. A class for the
 * same reason as the row's (store.ts): the accessor lives on the prototype, not in every answer.
 */
class RegistryName implements SourceName {
  readonly name: string;
  readonly network: MnsName['network'];
  readonly owner: string;
  readonly resolverAddress: string | null;
  readonly registeredAt: Date | null;
  readonly expireAt: Date | null;
  readonly source = REGISTRY_SOURCE;
  readonly #row: MnsName;

  constructor(row: MnsName) {
    this.name = row.name;
    this.network = row.network;
    this.owner = row.owner;
    this.resolverAddress = row.resolverAddress;
    this.registeredAt = row.registeredAt;
    this.expireAt = row.expireAt;
    this.#row = row;
  }

  get records(): NameRecords {
    return recordsOf(this.#row);
  }
}

const recordsOf = (row: MnsName): NameRecords => ({
  avatar: row.avatar,
  txtRecords: row.txtRecords,
  multichainAddresses: row.multichainAddresses,
});

const toSourceName = (row: MnsName): SourceName => new RegistryName(row);

/**
 * The local registry (`names:import`, and whatever else writes `mns_name`): asked first, so an operator's
 * import overrides every other source. One indexed query per network and batch.
 */
export function createRegistrySource(
  db: Pick<Database, 'query' | 'queryRows' | 'dialect'>,
  now: () => Date = () => new Date(),
): MnsSource {
  // Forward and reverse lookups, the public hot paths: the small ones of a turn share their statements.
  const names = new TurnBatch(
    async (network: MnsNetwork, keys) =>
      new Map((await findNames(db, network, keys, now())).map((row) => [row.name, toSourceName(row)])),
  );
  // The rows themselves (no second object per row), by position: keyed by address, they cost a batch a
  // thousand hashings (found-in-order.ts).
  const primaryNames = new TurnBatch(
    async (network: MnsNetwork, keys): Promise<ReadonlyMap<string, SourcePrimaryName>> =>
      new FoundInOrder(keys, await findPrimaryNames(db, network, keys, now())),
  );
  // Names across networks (a search's exact name, then its page's records), by the networks asked: a
  // turn's searches share these statements too, on PostgreSQL a round trip each.
  const namesOn = new TurnBatch(async (networks: string, keys): Promise<ReadonlyMap<string, SourceName[]>> => {
    const found = new Map<string, SourceName[]>();
    for (const row of await findNamesOn(db, networks.split(',') as MnsNetwork[], keys, now())) {
      const rows = found.get(row.name);
      if (rows) rows.push(toSourceName(row));
      else found.set(row.name, [toSourceName(row)]);
    }
    return found;
  });
  return {
    name: REGISTRY_SOURCE,
    names: (network, keys) => names.load(network, keys),
    async namesOn(networks, names) {
      const found = await namesOn.load(networks.join(','), names);
      return [...new Set(names)].flatMap((name) => found.get(name) ?? []);
    },
    primaryNames: (network, addresses) => primaryNames.load(network, addresses),
    async records(network, names) {
      const rows = await findNames(db, network, names, now());
      return new Map(rows.map((row) => [row.name, recordsOf(row)]));
    },
    async subNames(network, parents, limit) {
      const grouped = new Map<string, SourceSubName[]>();
      for (const sub of await findSubNames(db, network, parents, limit, now())) {
        const list = grouped.get(sub.parent) ?? [];
        list.push({ name: sub.name, owner: sub.owner });
        grouped.set(sub.parent, list);
      }
      return grouped;
    },
    async chainAddresses(caip2Id, networks, names) {
      const byName = new Map<string, MnsName[]>();
      for (const row of await findNamesOn(db, networks, names, now())) {
        byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
      }
      const found = new Map<
        string,
        { owner: string; address: string | null; network: MnsName['network']; source: string }
      >();
      for (const [name, rows] of byName) {
        const row = preferredNetwork(rows) as MnsName;
        const match = row.multichainAddresses.find((a) => a.caip2Id.toLowerCase() === caip2Id.toLowerCase());
        found.set(name, {
          owner: row.owner,
          address: match?.address ?? null,
          network: row.network,
          source: REGISTRY_SOURCE,
        });
      }
      return found;
    },
    namesByPrefix(prefix, limit) {
      return findNamesByPrefix(db, prefix, limit, now());
    },
  };
}
