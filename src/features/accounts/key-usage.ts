import type { Database } from '../../platform/db/orm.js';

export interface KeyListing {
  id: string;
  prefix: string;
  label: string | null;
  createdAt: string;
  /** Precise to about a minute (see touchApiKey); null if never used. */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** last_used_at is written at most this often per key and process: a key on every request would be a write per request. */
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

/**
 * Records that a key was used, cheaply: at most one write a minute per key from this process, and the
 * statement changes nothing when another process already did within the minute. Never waits, never fails
 * the request.
 */
export function touchApiKey(db: Database, keyId: string, onError: (err: unknown) => void, now = Date.now()): void {
  const last = touched.get(keyId);
  if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
  // Forget old entries before the map could grow with every key ever seen.
  if (touched.size > 10_000) for (const [id, at] of touched) if (now - at >= TOUCH_EVERY_MS) touched.delete(id);
  touched.set(keyId, now);
  db.run('update api_key set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)', [
    new Date(now).toISOString(),
    keyId,
    new Date(now - TOUCH_EVERY_MS).toISOString(),
  ]).catch((err: unknown) => {
    touched.delete(keyId);
    onError(err);
  });
}

interface KeyRow {
  id: string;
  prefix: string;
  label: string | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** A partner's API keys, oldest first, revoked ones included (marked): never the secret or its hash. */
export async function listApiKeys(db: Database, partnerId: string): Promise<KeyListing[]> {
  const rows = await db.query<KeyRow>(
    'select id, prefix, label, created_at, last_used_at, revoked_at from api_key where partner_id = ? order by created_at, prefix',
    [partnerId],
  );
  return rows.map((row) => ({
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    createdAt: iso(row.created_at) as string,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  }));
}
