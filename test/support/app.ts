import { type App, type BuildOptions, buildApp } from '../../src/app.js';
import { createPartner } from '../../src/features/accounts/partners.js';
import { loadConfig } from '../../src/platform/config.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp extends App {
  database: TestDatabase;
  /** Creates a partner (a sandbox partner with `{ sandbox: true }`) and returns its one-time key. */
  partner(
    credits?: number,
    name?: string,
    options?: { sandbox?: boolean },
  ): Promise<{ id: string; apiKey: string; email: string }>;
  stop(): Promise<void>;
}

let seq = 0;

/**
 * The Redis wait for test servers whose assertions count a limit exactly. At the 50 ms default a loaded
 * machine's slow round trip counts in memory by design, which rate-limit-redis.test.ts tests on its own.
 */
export const EXACT_COUNT_REDIS_TIMEOUT_MS = '2000';

/** The whole service on a fresh database, without listening: requests go through `app.http.inject`. */
export async function startTestApp(
  env: Record<string, string> = {},
  database?: TestDatabase,
  options: Omit<BuildOptions, 'logger'> = {},
): Promise<TestApp> {
  const db = database ?? (await createTestDatabase());
  const config = loadConfig({
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    SANDBOX_SEED: 'false',
    RATE_LIMIT_PARTNER_MAX: '100000',
    RATE_LIMIT_PUBLIC_MAX: '100000',
    // Many tests send bad keys on purpose, all from one address (and with Redis, into shared counters).
    RATE_LIMIT_FAILED_AUTH_MAX: '100000',
    RATE_LIMIT_REDIS_TIMEOUT_MS: EXACT_COUNT_REDIS_TIMEOUT_MS,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const app = await buildApp(config, {
    ...options,
    logger: env.LOG_LEVEL !== undefined || options.logStream !== undefined,
  });
  return {
    ...app,
    database: db,
    async partner(credits = 100, name = 'Test Partner', options = {}) {
      seq += 1;
      const email = `p${seq}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const { partner, key } = await createPartner(app.services.db, { name, email, credits, ...options });
      return { id: partner.id, apiKey: key.apiKey, email };
    },
    async stop() {
      await app.close();
      if (!database) await db.drop();
    },
  };
}

/** A partner's balance and usage once its settlements in flight are written. */
export async function partnerBooks(app: Pick<TestApp, 'services'>, partnerId: string) {
  await app.services.ledger.whenSettled(partnerId);
  const [row] = await app.services.db.query<{ b: number; u: number }>(
    'select credit_balance as b, credit_usage as u from partner where id = ?',
    [partnerId],
  );
  return { balance: Number(row?.b), usage: Number(row?.u) };
}
