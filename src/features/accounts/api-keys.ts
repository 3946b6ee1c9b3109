import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiKey, Partner } from '../../platform/db/entities/index.js';
import type { Database } from '../../platform/db/orm.js';
import type { AuthenticatedPartner } from '../../platform/graphql/context.js';

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
  const em = db.orm.em.fork();
  em.create(ApiKey, { id, partner: partnerId, prefix, hash, label: label ?? null, createdAt: new Date() });
  await em.flush();
  return { id, prefix, apiKey };
}

/** Revokes a key by id or public prefix; returns whether a live key was revoked. */
export async function revokeApiKey(db: Database, idOrPrefix: string): Promise<boolean> {
  const ref = idOrPrefix.toLowerCase();
  // Compare against the column the value can be: PostgreSQL refuses a non-UUID literal for a uuid column.
  const key = UUID.test(ref) ? { id: ref } : /^cgk_[0-9a-f]{8}$/.test(ref) ? { prefix: ref } : undefined;
  if (!key) return false;
  const changed = await db.orm.em.fork().nativeUpdate(ApiKey, { ...key, revokedAt: null }, { revokedAt: new Date() });
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

/**
 * Finds the partner owning a presented key, comparing hashes in constant time; null for any bad key. It
 * runs on every request, so it is one statement through the handle rather than the entity manager.
 */
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
  const partner = UUID.test(partnerId)
    ? await db.orm.em.fork().findOne(Partner, { id: partnerId }, { fields: ['name', 'email', 'sandbox'] })
    : null;
  if (!partner) return null;
  return { id: partner.id, name: partner.name, email: partner.email, keyId, sandbox: partner.sandbox };
}
