import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { buildUrl, createHttpClient, type HttpClientOptions, parseRetryAfter } from './client.js';
import { isUpstreamClientError, UpstreamHttpError, UpstreamUnavailableError } from './errors.js';
import { UpstreamError } from './status.js';

let upstream: Standin;

beforeEach(async () => {
  upstream = await startStandin();
});
afterEach(async () => {
  await upstream.close();
});

/** Small timeouts and backoffs keep these tests in the tens of milliseconds. */
const client = (overrides: Partial<HttpClientOptions> = {}) =>
  createHttpClient({
    name: 'test',
    baseUrl: `${upstream.url}/v1`,
    timeoutMs: 200,
    retries: 2,
    backoff: { baseMs: 5, maxMs: 20, maxRetryAfterMs: 500 },
    breaker: false,
    ...overrides,
  });

describe('createHttpClient', () => {
  it('GETs base URL + path with the query and headers, and parses JSON', async () => {
    upstream.reply('/v1/tokens', { json: { tokens: { 1: [] } } });
    const http = client({ headers: { 'x-lifi-api-key': 'k1' } });
    const body = await http.getJson('/tokens', { chains: '1,137', skipped: undefined, n: 3n });
    expect(body).toEqual({ tokens: { 1: [] } });
    const [req] = upstream.requests('/v1/tokens');
    expect(req?.query).toEqual({ chains: '1,137', n: '3' });
    expect(req?.headers['x-lifi-api-key']).toBe('k1');
    expect(req?.headers.accept).toBe('application/json');
  });

  it('retries 5xx and returns the later success', async () => {
    upstream.sequence('/v1/chains', [{ status: 502 }, { status: 503, json: { message: 'busy' } }, { json: [1] }]);
    await expect(client().getJson('/chains')).resolves.toEqual([1]);
    expect(upstream.count('/v1/chains')).toBe(3);
  });

  it('gives up after the configured retries with the last HTTP error', async () => {
    upstream.reply('/v1/chains', { status: 500, json: { message: 'boom' } });
    const err = await failure(client({ retries: 1 }).getJson('/chains'));
    expect(err).toBeInstanceOf(UpstreamHttpError);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamHttpError).status).toBe(500);
    expect((err as UpstreamHttpError).isClientError).toBe(false);
    expect(upstream.count('/v1/chains')).toBe(2);
  });

  it('does not retry other 4xx and exposes status and body', async () => {
    upstream.reply('/v1/quote', { status: 400, json: { message: 'fromAmount must be positive', code: 1011 } });
    const err = await failure(client().getJson('/quote'));
    expect(upstream.count('/v1/quote')).toBe(1);
    expect(isUpstreamClientError(err)).toBe(true);
    const httpErr = err as UpstreamHttpError;
    expect(httpErr.status).toBe(400);
    expect(httpErr.body).toEqual({ message: 'fromAmount must be positive', code: 1011 });
    expect(httpErr.upstreamMessage).toBe('fromAmount must be positive');
    expect(httpErr.message).toContain('test: HTTP 400');
  });

  it('keeps non-JSON error bodies as text', async () => {
    upstream.reply('/v1/x', { status: 404, body: 'Not here' });
    const err = (await failure(client().getJson('/x'))) as UpstreamHttpError;
    expect(err.status).toBe(404);
    expect(err.body).toBe('Not here');
  });

  it('retries 429 after the Retry-After delay', async () => {
    upstream.sequence('/v1/q', [{ status: 429, headers: { 'retry-after': '0' } }, { json: { ok: true } }]);
    await expect(client().getJson('/q')).resolves.toEqual({ ok: true });
    expect(upstream.count('/v1/q')).toBe(2);
  });

  it('waits at least Retry-After (seconds or date) before retrying, and backs off exponentially otherwise', async () => {
    const delays: number[] = [];
    const recordSleep = async (ms: number) => {
      delays.push(ms);
    };
    upstream.sequence('/v1/q', [{ status: 503, headers: { 'retry-after': '2' } }, { status: 500 }, { status: 500 }]);
    const http = client({
      retries: 2,
      sleep: recordSleep,
      random: () => 1,
      backoff: { baseMs: 100, maxMs: 150, maxRetryAfterMs: 5_000 },
    });
    await failure(http.getJson('/q'));
    // 1st retry: Retry-After 2 s beats the 100 ms step; 2nd: step 200 ms capped at 150 ms.
    expect(delays).toEqual([2_000, 150]);
  });

  it('jitters backoff between half and all of the step', async () => {
    const delays: number[] = [];
    upstream.reply('/v1/q', { status: 500 });
    const http = client({
      retries: 1,
      random: () => 0,
      sleep: async (ms) => {
        delays.push(ms);
      },
      backoff: { baseMs: 100 },
    });
    await failure(http.getJson('/q'));
    expect(delays).toEqual([50]);
  });

  it('does not wait for a Retry-After beyond the cap', async () => {
    upstream.reply('/v1/q', { status: 429, headers: { 'retry-after': '120' }, json: { message: 'slow down' } });
    const started = performance.now();
    const err = (await failure(client().getJson('/q'))) as UpstreamHttpError;
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(120_000);
    expect(upstream.count('/v1/q')).toBe(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('times out a hanging upstream, retries, then raises UpstreamUnavailableError(timeout)', async () => {
    upstream.reply('/v1/slow', { hang: true });
    const err = await failure(client({ timeoutMs: 50, retries: 1 }).getJson('/slow'));
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect((err as UpstreamUnavailableError).reason).toBe('timeout');
    expect(upstream.count('/v1/slow')).toBe(2);
  });

  it('recovers when a slow first answer is followed by a fast one', async () => {
    upstream.sequence('/v1/slow', [{ delayMs: 300, json: 'late' }, { json: 'fast' }]);
    await expect(client({ timeoutMs: 80 }).getJson('/slow')).resolves.toBe('fast');
  });

  it('reports an unreachable upstream as UpstreamUnavailableError(network)', async () => {
    const dead = `${upstream.url}/v1`;
    await upstream.close();
    const err = await failure(client({ baseUrl: dead, retries: 0 }).getJson('/x'));
    expect((err as UpstreamUnavailableError).reason).toBe('network');
    upstream = await startStandin(); // for afterEach
  });

  it('reports a 200 with a non-JSON body as invalid_body without retrying', async () => {
    upstream.reply('/v1/html', { body: '<html>maintenance</html>' });
    const err = await failure(client().getJson('/html'));
    expect((err as UpstreamUnavailableError).reason).toBe('invalid_body');
    expect(upstream.count('/v1/html')).toBe(1);
  });

  it("aborts on the caller's signal with the caller's reason and does not retry", async () => {
    upstream.reply('/v1/slow', { hang: true });
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 20);
    const err = await failure(client({ timeoutMs: 5_000 }).getJson('/slow', {}, { signal: controller.signal }));
    expect(err).toBe(reason);
    expect(upstream.count('/v1/slow')).toBe(1);
  });

  it('gives retries, back-offs and sequential calls sharing one signal a single deadline', async () => {
    upstream.reply('/v1/slow', { hang: true });
    upstream.reply('/v1/fallback', { hang: true });
    // Alone, each call could take 3 attempts × 200 ms plus back-offs.
    const http = client({ timeoutMs: 200, retries: 2 });
    const deadline = AbortSignal.timeout(250);
    const started = performance.now();
    const first = await failure(http.getJson('/slow', {}, { signal: deadline }));
    const second = await failure(http.getJson('/fallback', {}, { signal: deadline }));
    expect(performance.now() - started).toBeLessThan(400);
    expect((first as Error).name).toBe('TimeoutError');
    expect(second).toBe(first);
    // The deadline cut the retries short (a third attempt would start after 400 ms) and the fallback never went out.
    expect(upstream.count('/v1/slow')).toBeLessThanOrEqual(2);
    expect(upstream.count('/v1/fallback')).toBe(0);
  });

  it('does not call at all when the caller signal is already aborted', async () => {
    upstream.reply('/v1/x', { json: 1 });
    const err = await failure(client().getJson('/x', {}, { signal: AbortSignal.abort(new Error('gone')) }));
    expect((err as Error).message).toBe('gone');
    expect(upstream.count('/v1/x')).toBe(0);
  });

  describe('circuit breaker', () => {
    it('opens after the threshold of failed calls and then fails fast without calling', async () => {
      upstream.reply('/v1/x', { status: 503 });
      const http = client({ retries: 0, breaker: { failureThreshold: 3, cooldownMs: 60_000 } });
      for (let i = 0; i < 3; i++) await failure(http.getJson('/x'));
      expect(http.breakerState).toBe('open');
      const err = await failure(http.getJson('/x'));
      expect(err).toBeInstanceOf(UpstreamUnavailableError);
      expect((err as UpstreamUnavailableError).reason).toBe('circuit_open');
      expect(upstream.count('/v1/x')).toBe(3);
    });

    it('half-opens after the cool-down: one probe, success closes', async () => {
      let clock = 1_000;
      upstream.sequence('/v1/x', [{ status: 500 }, { status: 500 }, { json: 'back' }]);
      const http = client({ retries: 0, breaker: { failureThreshold: 2, cooldownMs: 10_000 }, now: () => clock });
      await failure(http.getJson('/x'));
      await failure(http.getJson('/x'));
      expect(http.breakerState).toBe('open');
      clock += 9_999;
      expect(((await failure(http.getJson('/x'))) as UpstreamUnavailableError).reason).toBe('circuit_open');
      clock += 1;
      await expect(http.getJson('/x')).resolves.toBe('back');
      expect(http.breakerState).toBe('closed');
      expect(upstream.count('/v1/x')).toBe(3);
    });

    it('lets only one probe through while half-open, and a failed probe re-opens without retries', async () => {
      let clock = 0;
      upstream.reply('/v1/x', { status: 500 });
      const http = client({ retries: 3, breaker: { failureThreshold: 1, cooldownMs: 100 }, now: () => clock });
      await failure(http.getJson('/x'));
      expect(upstream.count('/v1/x')).toBe(4);
      clock = 100;
      upstream.resetCounts();
      upstream.reply('/v1/x', { delayMs: 50, status: 500 });
      const probe = failure(http.getJson('/x'));
      const concurrent = (await failure(http.getJson('/x'))) as UpstreamUnavailableError;
      expect(concurrent.reason).toBe('circuit_open');
      expect(await probe).toBeInstanceOf(UpstreamHttpError);
      expect(upstream.count('/v1/x')).toBe(1);
      expect(http.breakerState).toBe('open');
    });

    it('does not count 4xx answers as failures', async () => {
      upstream.reply('/v1/x', { status: 404, json: { message: 'no route' } });
      const http = client({ retries: 0, breaker: { failureThreshold: 2, cooldownMs: 60_000 } });
      for (let i = 0; i < 5; i++) await failure(http.getJson('/x'));
      expect(http.breakerState).toBe('closed');
      expect(upstream.count('/v1/x')).toBe(5);
    });

    it('a success resets the consecutive-failure count', async () => {
      upstream.sequence('/v1/x', [{ status: 500 }, { json: 1 }, { status: 500 }, { json: 2 }]);
      const http = client({ retries: 0, breaker: { failureThreshold: 2, cooldownMs: 60_000 } });
      await failure(http.getJson('/x'));
      await http.getJson('/x');
      await failure(http.getJson('/x'));
      expect(http.breakerState).toBe('closed');
    });
  });
});

describe('helpers', () => {
  it('buildUrl keeps the base path', () => {
    expect(buildUrl('https://li.quest/v1/', '/quote', { a: 1, b: undefined })).toBe('https://li.quest/v1/quote?a=1');
    expect(buildUrl('https://app.across.to/api', 'deposit/status', {})).toBe(
      'https://app.across.to/api/deposit/status',
    );
  });

  it('parseRetryAfter reads seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
