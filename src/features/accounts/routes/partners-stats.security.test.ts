import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../../test/support/app.js';
import { useTestApp } from '../../../../test/support/use-app.js';
import { revokeApiKey } from '../api-keys.js';

describe('API key security', () => {
  const app = useTestApp();

  it('stores keys only as a SHA-256 hash with a public prefix', async () => {
    const { id, apiKey } = await app.partner(1);
    const rows = await app.services.db.query<{ prefix: string; hash: string }>(
      'select prefix, hash from api_key where partner_id = ?',
      [id],
    );
    expect(rows).toHaveLength(1);
    expect(apiKey.startsWith(`${rows[0]?.prefix}_`)).toBe(true);
    expect(rows[0]?.hash).toBe(createHash('sha256').update(apiKey).digest('hex'));
    const dump = JSON.stringify(await app.services.db.query('select * from api_key'));
    expect(dump).not.toContain(apiKey.split('_').slice(2).join('_'));
  });

  it('rejects a right prefix with a wrong secret', async () => {
    const { apiKey } = await app.partner(1);
    const forged = `${apiKey.slice(0, apiKey.lastIndexOf('_'))}_${'A'.repeat(43)}`;
    const res = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': forged } });
    expect(res.statusCode).toBe(401);
  });

  it('a revoked key answers 401 at once; the partner’s other keys keep working', async () => {
    const { id, apiKey } = await app.partner(1);
    const { issueApiKey } = await import('../api-keys.js');
    const second = await issueApiKey(app.services.db, id, 'second');
    expect(await revokeApiKey(app.services.db, apiKey.slice(0, 12))).toBe(true);
    const revoked = await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
    expect(revoked.statusCode).toBe(401);
    const other = await app.http.inject({
      method: 'GET',
      url: '/partners/stats',
      headers: { 'x-api-key': second.apiKey },
    });
    expect(other.statusCode).toBe(200);
  });

  it('never writes a key to the log, even at trace level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await startTestApp({ LOG_LEVEL: 'trace' }, undefined, { logStream: sink });
    try {
      const { apiKey } = await logged.partner(3);
      await logged.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } });
      await logged.http.inject({ method: 'GET', url: '/partners/nope', headers: { 'x-api-key': apiKey } });
      await logged.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        payload: { query: '{ stats { email } }' },
      });
      expect(lines.length).toBeGreaterThan(3);
      const secret = apiKey.split('_').slice(2).join('_');
      expect(lines.join('')).not.toContain(secret);
    } finally {
      await logged.stop();
    }
  });
});
