import type { Database } from '../db/orm.js';
import { createPartner } from '../partners/partners.js';

export const SANDBOX_EMAIL = 'sandbox@cipgate.local';

/**
 * On the first start of an embedded install, a labelled sandbox partner lets a newcomer call the API at
 * once. Returns its key the one time it is created (the caller prints it), otherwise null.
 */
export async function seedSandboxPartner(db: Database): Promise<string | null> {
  const existing = await db.query('select id from partner where email = ?', [SANDBOX_EMAIL]);
  if (existing.length) return null;
  const { key } = await createPartner(db, {
    name: 'Sandbox partner (demo data, not a customer)',
    email: SANDBOX_EMAIL,
    credits: 1000,
    sandbox: true,
  });
  return key.apiKey;
}
