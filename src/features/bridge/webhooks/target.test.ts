import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { AppError } from '../../../platform/errors.js';
import { checkTarget, guardedLookup, parseTarget, refusedAddress } from './target.js';

const strict = { allowHttpLoopback: false };
const tests = { allowHttpLoopback: true };

const refusal = async (url: string, policy = strict) => {
  const err = await checkTarget(url, policy).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('BAD_USER_INPUT');
  return (err as AppError).message;
};

describe('webhook targets (SSRF guard)', () => {
  it('refuses loopback, private, link-local and unique-local addresses, literal or resolved', async () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://127.8.9.10/x',
      'https://localhost/x',
      'https://[::1]/x',
      'https://0.0.0.0/x',
      'https://10.0.0.1/x',
      'https://100.64.1.1/x',
      'https://172.31.255.255/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/x',
      'https://[fc00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://2130706433/x', // 127.0.0.1 spelled as a number: URL parsing normalizes it
    ]) {
      expect(await refusal(url)).toMatch(/non-public address|does not resolve/);
    }
  });

  it('refuses IPv6 ranges that embed an IPv4 address, and deprecated site-local, whatever is inside', async () => {
    for (const url of [
      'https://[::127.0.0.1]/x', // IPv4-compatible (::/96)
      'https://[::8.8.8.8]/x',
      'https://[::ffff:0:127.0.0.1]/x', // SIIT (::ffff:0:0:0/96)
      'https://[::ffff:0:a00:1]/x',
      'https://[2002:7f00:1::1]/x', // 6to4 of 127.0.0.1 (2002::/16)
      'https://[2002:a00:1::]/x',
      'https://[64:ff9b::127.0.0.1]/x', // NAT64 well-known prefix (64:ff9b::/96)
      'https://[64:ff9b::169.254.169.254]/x',
      'https://[64:ff9b:1::a00:1]/x', // NAT64 local-use (64:ff9b:1::/48)
      'https://[fec0::1]/x', // site-local (fec0::/10)
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x', // Teredo (2001::/32)
    ]) {
      expect(await refusal(url), url).toMatch(/non-public address/);
    }
    // Mapped public IPv4 and other global IPv6 stay allowed.
    expect(refusedAddress('::ffff:8.8.8.8', strict)).toBeNull();
    expect(refusedAddress('2001:4860:4860::8888', strict)).toBeNull();
  });

  it('never names the address a refused host resolved to', async () => {
    const message = await refusal('https://localhost/x');
    expect(message).toMatch(/localhost/);
    expect(message).not.toMatch(/127\.0\.0\.1|::1/);
    for (const ip of ['127.0.0.1', '::ffff:192.168.0.1', '10.9.8.7', 'fd12::34']) {
      const why = refusedAddress(ip, strict) as string;
      expect(why).toMatch(/non-public address/);
      expect(why).not.toContain(ip.replace('::ffff:', ''));
    }
    // The delivery-time guard's error, which a delivery's lastError records, says no more.
    const err = await new Promise<Error | null>((resolve) => guardedLookup(strict)('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/non-public address/);
    expect(err?.message).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('measures the length of the URL as it is stored: normalized, percent-encoded', () => {
    const longOnceEncoded = `https://93.184.216.34/${'é'.repeat(1000)}`;
    expect(longOnceEncoded.length).toBeLessThan(2048);
    expect(new URL(longOnceEncoded).href.length).toBeGreaterThan(2048);
    expect(() => parseTarget(longOnceEncoded, strict)).toThrow(/at most 2048 characters once normalized/);
    const fits = `https://93.184.216.34/${'a'.repeat(2048 - 'https://93.184.216.34/'.length)}`;
    expect(parseTarget(fits, strict).href).toHaveLength(2048);
    expect(() => parseTarget(`${fits}b`, strict)).toThrow(/at most 2048/);
  });

  it('requires https except for loopback under the test-only setting', async () => {
    expect(await refusal('http://127.0.0.1:8080/x')).toMatch(/https/);
    expect(await refusal('http://93.184.216.34/x', tests)).toMatch(/https/);
    expect(await refusal('http://10.0.0.1/x', tests)).toMatch(/private/);
    expect((await checkTarget('http://127.0.0.1:8080/x', tests)).href).toBe('http://127.0.0.1:8080/x');
    expect((await checkTarget('https://93.184.216.34/x', strict)).host).toBe('93.184.216.34');
  });

  it('says why an address is refused', () => {
    expect(refusedAddress('8.8.8.8', strict)).toBeNull();
    expect(refusedAddress('2606:4700::1111', strict)).toBeNull();
    expect(refusedAddress('::ffff:192.168.0.1', strict)).toMatch(/private/);
    expect(refusedAddress('127.0.0.1', tests)).toBeNull();
  });
});

describe('registering a webhook whose URL grows past 2048 characters when normalized', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  it('is a free 400 in the partner error shape on REST and BAD_USER_INPUT on GraphQL, and stores nothing', async () => {
    const { apiKey } = await app.partner(5);
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      app.http.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });
    const url = `https://93.184.216.34/${'é'.repeat(1000)}`;
    const rest = await call('POST', '/partners/webhooks', { url });
    expect(rest.statusCode, rest.body).toBe(400);
    expect(rest.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/url must be at most 2048 characters once normalized/),
    });
    const gql = await call('POST', '/graphql', {
      query: 'mutation ($url: String!) { registerWebhook(url: $url) { id } }',
      variables: { url },
    });
    expect(gql.json().errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await call('GET', '/partners/webhooks')).json()).toEqual({ webhooks: [] });
    expect(await app.services.db.query('select id from bridge_webhook')).toEqual([]);
    expect((await call('GET', '/partners/stats')).json()).toMatchObject({ creditBalance: 5, creditUsage: 0 });
  });
});
