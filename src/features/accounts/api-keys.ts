import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../platform/db/orm.js';
import type { AuthenticatedPartner } from '../../platform/graphql/context.js';
import { getPartner } from './partners.js';

/**
 * API keys look like `cgk_3fa9c2d1_<43 chars>`: the `cgk_3fa9c2d1` prefix is public (shown in listings,
 * used to find the row), the rest is 256 bits of secret. Only a SHA-256 of the whole key is stored: a
 * fast hash is right for high-entropy secrets, and lets every request verify without a KDF's cost.
 */
const KEY_PATTERN = /^(cgk_[0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  id: string;
  prefix: string;
  /** The full key: shown once, never stored. */
  apiKey: string;
}

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

export function generateApiKey(): { apiKey: string; prefix: string; hash: string } {
  const prefix = `cgk_${randomBytes(4).toString('hex')}`;
  const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { apiKey, prefix, hash: sha256(apiKey).toString('hex') };
}

export async function issueApiKey(db: Database, partnerId: string, label?: string): Promise<IssuedKey> {
  const { apiKey, prefix, hash } = generateApiKey();
  const id = randomUUID();
  await db.run('insert into api_key (id, partner_id, prefix, hash, label, created_at) values (?, ?, ?, ?, ?, ?)', [
    id,
    partnerId,
    prefix,
    hash,
    label ?? null,
    new Date().toISOString(),
  ]);
  return { id, prefix, apiKey };
}

/** Revokes a key by id or public prefix; returns whether a live key was revoked. */
export async function revokeApiKey(db: Database, idOrPrefix: string): Promise<boolean> {
  // Compare against the column the value can be: PostgreSQL refuses a non-UUID literal for a uuid column.
  const column = UUID.test(idOrPrefix) ? 'id' : /^cgk_[0-9a-f]{8}$/.test(idOrPrefix) ? 'prefix' : undefined;
  if (!column) return false;
  const changed = await db.run(`update api_key set revoked_at = ? where ${column} = ? and revoked_at is null`, [
    new Date(),
    idOrPrefix.toLowerCase(),
  ]);
  return changed > 0;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface KeyRow {
  key_id: string;
  hash: string;
  partner_id: string;
  name: string;
  email: string;
  sandbox: boolean | number;
}

/** Finds the partner owning a presented key, comparing hashes in constant time; null for any bad key. */
export async function verifyApiKey(db: Database, presented: string): Promise<AuthenticatedPartner | null> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return null;
  const rows = await db.query<KeyRow>(
    `select k.id as key_id, k.hash, p.id as partner_id, p.name, p.email, p.sandbox
       from api_key k join partner p on p.id = k.partner_id
      where k.prefix = ? and k.revoked_at is null`,
    [match[1]],
  );
  const row = rows[0];
  // Hash even when no row matched, so a wrong prefix and a wrong secret take the same time.
  const presentedHash = sha256(presented);
  const storedHash = row ? Buffer.from(row.hash, 'hex') : Buffer.alloc(32);
  if (!timingSafeEqual(presentedHash, storedHash) || !row) return null;
  // SQLite stores booleans as 0/1.
  return { id: row.partner_id, name: row.name, email: row.email, keyId: row.key_id, sandbox: Boolean(row.sandbox) };
}

/** The partner a gateway token names, in verifyApiKey's shape, for a subgraph that never sees the key. */
export async function getAuthenticatedPartner(
  db: Database,
  partnerId: string,
  keyId: string,
): Promise<AuthenticatedPartner | null> {
  const partner = UUID.test(partnerId) ? await getPartner(db, partnerId) : null;
  if (!partner) return null;
  return { id: partner.id, name: partner.name, email: partner.email, keyId, sandbox: partner.sandbox };
}
