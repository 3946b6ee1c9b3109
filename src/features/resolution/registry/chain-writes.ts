import type { Database } from '../../../platform/db/orm.js';
import { normalizeMoveAddress } from './address.js';
import { parentOf } from './name.js';
import type { MnsNetwork } from './networks.js';

/**
 * Registry writes of the MNS indexer. Each sets state rather than changing it by a delta, so replaying
 * events already applied leaves the registry as it was. They touch only rows the chain wrote
 * (`source = 'chain'`): a name imported by the operator (`names:import`) overrides the chain and is
 * never changed by it.
 */
type Run = Pick<Database, 'run'>;

export const CHAIN = 'chain';

/** A name's target was set (or, by a registration with a target, first given one). */
export async function setChainTarget(
  db: Run,
  row: { name: string; network: MnsNetwork; target: string; expireAt: Date; registeredAt: Date | null; now: Date },
): Promise<void> {
  const ownerKey = normalizeMoveAddress(row.target);
  if (!ownerKey) return;
  // A primary name whose target moves to another address stops being that address's primary name.
  await db.run(
    `insert into mns_name (name, network, parent, owner, owner_key, is_primary, registered_at, expire_at, updated_at, source)
     values (?, ?, ?, ?, ?, false, ?, ?, ?, '${CHAIN}')
     on conflict (name, network) do update set
       owner = excluded.owner,
       owner_key = excluded.owner_key,
       is_primary = case when mns_name.owner_key = excluded.owner_key then mns_name.is_primary else false end,
       registered_at = coalesce(excluded.registered_at, mns_name.registered_at),
       expire_at = excluded.expire_at,
       updated_at = excluded.updated_at
     where mns_name.source = '${CHAIN}'`,
    [row.name, row.network, parentOf(row.name), row.target, ownerKey, row.registeredAt, row.expireAt, row.now],
  );
}

/**
 * A name lost its target (cleared, or reset by a new registration): it no longer resolves, and the
 * registry only keeps names that do, so its row goes, and with it any primary-name flag.
 */
export async function clearChainTarget(db: Run, name: string, network: MnsNetwork): Promise<void> {
  await db.run(`delete from mns_name where name = ? and network = ? and source = '${CHAIN}'`, [name, network]);
}

/** A renewal: the new expiry. Returns false when the registry has no chain row for the name. */
export async function setChainExpiry(
  db: Run,
  row: { name: string; network: MnsNetwork; expireAt: Date; now: Date },
): Promise<boolean> {
  const changed = await db.run(
    `update mns_name set expire_at = ?, updated_at = ? where name = ? and network = ? and source = '${CHAIN}'`,
    [row.expireAt, row.now, row.name, row.network],
  );
  return changed > 0;
}

/**
 * An address's primary name was set (`name`) or cleared (null). The flag only lands on a name whose
 * target is that address (MNS's own rule), and not while an imported name is that address's primary.
 */
export async function setChainPrimary(
  db: Run,
  row: { network: MnsNetwork; address: string; name: string | null; now: Date },
): Promise<void> {
  const key = normalizeMoveAddress(row.address);
  if (!key) return;
  await db.run(
    `update mns_name set is_primary = false, updated_at = ? where network = ? and owner_key = ? and is_primary and source = '${CHAIN}'`,
    [row.now, row.network, key],
  );
  if (row.name === null) return;
  await db.run(
    `update mns_name set is_primary = true, updated_at = ?
     where name = ? and network = ? and owner_key = ? and source = '${CHAIN}'
       and not exists (select 1 from mns_name other where other.network = ? and other.owner_key = ? and other.is_primary)`,
    [row.now, row.name, row.network, key, row.network, key],
  );
}
