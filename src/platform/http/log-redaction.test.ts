import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { redactUrl } from './log-redaction.js';

/** Keys must never reach a log line, wherever a client puts them. */
let app: TestApp;
let apiKey: string;
let secret: string;
const lines: string[] = [];
// Rate-limit counters may live in a Redis shared with other test files: keep ours apart.
const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.3`;

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  app = await startTestApp({ LOG_LEVEL: 'trace' }, undefined, { logStream });
  ({ apiKey } = await app.partner(10));
  secret = apiKey.split('_').slice(2).join('_');
});
afterAll(async () => {
  await app?.stop();
});

describe('log redaction', () => {
  it('keeps keys and credential-like query values out of every log line at trace level', async () => {
    const prefix = apiKey.slice(0, 12);
    const urls = [
      `/partners/stats?x-api-key=${apiKey}`,
      `/partners/stats?apikey=${apiKey}&page=1`,
      `/partners/stats?api_key=${encodeURIComponent(apiKey)}`,
      `/partners/stats?key=${apiKey}`,
      `/partners/stats?token=hunter2-token&Secret=hunter2-secret`,
      `/partners/stats?anything=${apiKey.replace('_', '%5F')}`,
      `/partners/${apiKey}`,
      `/api/public/identity/metadata/${apiKey}`,
      `/api/public/identity/metadata/${apiKey.replace(/_/g, '%5F')}`,
      `/api/public/identity/address?name=${apiKey}&caip2Id=move-mvmt:126`,
      `/partners/%zz?key=${apiKey}`,
    ];
    for (const url of urls) {
      const res = await app.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey }, remoteAddress });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    await app.http.inject({
      method: 'POST',
      url: '/graphql',
      remoteAddress,
      headers: { 'x-api-key': apiKey, authorization: `Bearer ${apiKey}`, cookie: `k=${apiKey}` },
      payload: { query: `{ partnerStats { email } }`, variables: { key: apiKey } },
    });
    // The log stream is asynchronous: give it a moment to flush.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const log = lines.join('\n');
    // Each request was logged, with its URL, so the assertions below look at real lines.
    expect(lines.filter((l) => l.includes('"incoming request"')).length).toBeGreaterThanOrEqual(urls.length + 1);
    expect(log).toContain('x-api-key=[redacted]');
    expect(log).toContain(`${prefix}_[redacted]`);
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.replace(/_/g, '%5F'));
    expect(log).not.toContain('hunter2');
  });
});

describe('redactUrl', () => {
  const key = `cgk_0123abcd_${'A'.repeat(43)}`;
  it.each([
    ['/p?x-api-key=abc&page=2', '/p?x-api-key=[redacted]&page=2'],
    ['/p?X-API-KEY=abc', '/p?X-API-KEY=[redacted]'],
    ['/p?access_token=abc&q=alice', '/p?access_token=[redacted]&q=alice'],
    ['/p?q=alice.mvmt&page=1', '/p?q=alice.mvmt&page=1'],
    [`/p?q=${key}`, '/p?q=[redacted]'],
    [`/p/${key}?a=1`, '/p/cgk_0123abcd_[redacted]?a=1'],
    [`/p/${key.replace('_', '%5F')}`, '/p/cgk_0123abcd_[redacted]'],
    ['/p?flag', '/p?flag'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
