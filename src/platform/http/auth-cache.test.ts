import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../../test/support/features.js';
import { useTestApp } from '../../../test/support/use-app.js';
import type { AuthenticatedPartner } from '../graphql/context.js';
import { KEY_CACHE_TTL_MS, verifiedKeyCache } from './auth.js';

const partner: AuthenticatedPartner = { id: 'p', name: 'P', email: 'p@x', keyId: 'k', sandbox: false };

describe('verified-key cache', () => {
  it('asks once per key within the TTL, shares a check in flight, and never remembers a failure', async () => {
    const asked: string[] = [];
    const verify = verifiedKeyCache(async (key) => {
      asked.push(key);
      return key === 'good' ? partner : null;
    }, 50);
    expect(await Promise.all([verify('good'), verify('good')])).toEqual([partner, partner]);
    // Once verified, the partner comes at once, not in a promise: a cached key costs no microtask hop.
    expect(verify('good')).toEqual(partner);
    expect(await verify('bad')).toBeNull();
    expect(await verify('bad')).toBeNull();
    expect(asked).toEqual(['good', 'bad', 'bad']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await verify('good')).toEqual(partner);
    expect(asked).toEqual(['good', 'bad', 'bad', 'good']);
  });

  describe('through the service', () => {
    const app = useTestApp();

    it('refuses a key within 1 s of its revocation, though it was verified (and cached) just before', async () => {
      const { apiKey } = await app.partner(1);
      const stats = () => app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
      expect((await stats()).statusCode).toBe(200);
      expect(await revokeApiKey(app.services.db, apiKey.slice(0, 12))).toBe(true);
      const revokedAt = Date.now();
      let status = (await stats()).statusCode;
      while (status === 200 && Date.now() - revokedAt < 2 * KEY_CACHE_TTL_MS) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await stats()).statusCode;
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(KEY_CACHE_TTL_MS + 100);
    });
  });
});
