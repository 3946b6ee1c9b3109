import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/support/use-app.js';

describe('GET /partners/stats', () => {
  const app = useTestApp();

  it('answers the partner account and costs nothing', async () => {
    const { apiKey, email } = await app.partner(25, 'Acme');
    for (let i = 0; i < 2; i++) {
      const res = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ email, name: 'Acme', creditBalance: 25, creditUsage: 0 });
    }
  });
});
