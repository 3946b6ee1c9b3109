import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Database } from '../../platform/db/orm.js';
import { createPartner } from './partners.js';

export const SANDBOX_EMAIL = 'sandbox@cipgate.local';

/**
 * On the first start of an embedded install, a labelled sandbox partner lets a newcomer call the API at
 * once. Its key is written to `keyFile` (readable by this user only) the one time it is created, never
 * to the log; returns the key and the file then, otherwise null. The caller creates it only once the
 * server listens, so a failed start does not use up the one-time key.
 */
export async function seedSandboxPartner(
  db: Database,
  keyFile: string,
): Promise<{ key: string; keyFile: string } | null> {
  const existing = await db.query('select id from partner where email = ?', [SANDBOX_EMAIL]);
  if (existing.length) return null;
  // The file is opened (created 0600) before the partner exists: if it cannot be, nothing is created
  // and the next start tries again, instead of minting a key nobody can ever read.
  mkdirSync(dirname(keyFile), { recursive: true });
  const fd = openSync(keyFile, 'w', 0o600);
  try {
    // `mode` applies only to a new file: an old one keeps its permissions unless told.
    fchmodSync(fd, 0o600);
    const { key } = await createPartner(db, {
      name: 'Sandbox partner (demo data, not a customer)',
      email: SANDBOX_EMAIL,
      credits: 1000,
      sandbox: true,
    });
    writeSync(fd, `${key.apiKey}\n`);
    return { key: key.apiKey, keyFile };
  } finally {
    closeSync(fd);
  }
}

/** Beside the embedded database file (its data directory); `./data` for PostgreSQL or in-memory SQLite. */
export function sandboxKeyFile(databaseUrl: string): string {
  const path = databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length) : ':memory:';
  return resolve(path === ':memory:' ? 'data' : dirname(resolve(path)), 'sandbox-key.txt');
}

/** What an operator at a terminal sees on the first start (never written to the log stream). */
export function sandboxBanner(key: string, keyFile: string, port: number): string {
  return (
    `\n  Sandbox partner created (1000 demo credits). Its API key (also in ${keyFile}):\n\n    ${key}\n\n` +
    `  Try: curl -H 'x-api-key: ${key}' http://localhost:${port}/partners/stats\n\n`
  );
}
