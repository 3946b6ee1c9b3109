import { afterEach, describe, expect, it } from 'vitest';
import { type EndlessUpstream, startEndlessUpstream } from '../../../test/support/endless-upstream.js';
import { failure } from '../../../test/support/failure.js';
import { type Standin, startStandin } from '../../../test/support/http-standin.js';
import { BodyTooLargeError, limitedFetch } from './body.js';
import { createHttpClient } from './client.js';
import { UpstreamUnavailableError } from './errors.js';

const LIMIT = 256 * 1024;
let endless: EndlessUpstream | undefined;
let standin: Standin | undefined;
afterEach(async () => {
  await endless?.close();
  await standin?.close();
  endless = undefined;
  standin = undefined;
});

const client = (baseUrl: string, maxBodyBytes = LIMIT) =>
  createHttpClient({ name: 'test', baseUrl, timeoutMs: 10_000, retries: 2, breaker: false, maxBodyBytes });

describe('upstream body limit', () => {
  it('fails an endless answer fast as too_large, without retrying, and drops the connection', async () => {
    endless = await startEndlessUpstream();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const err = await failure(client(endless.url).getJson('/quote'));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect((err as UpstreamUnavailableError).reason).toBe('too_large');
    expect((err as Error).message).toMatch(`larger than ${LIMIT} bytes`);
    // A huge answer will be huge again: one request, not three.
    expect(endless.requests).toBe(1);
    await endless.closed(1);
    // The server stops being able to send once the socket is gone: what it wrote is bounded by the
    // limit plus the kernel and stream buffers, not growing with time.
    const sent = endless.bytesSent;
    await new Promise((r) => setTimeout(r, 200));
    expect(endless.bytesSent).toBe(sent);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses an answer whose Content-Length is over the limit before reading it', async () => {
    endless = await startEndlessUpstream({ declaredLength: LIMIT + 1 });
    const err = await failure(client(endless.url).getJson('/quote'));
    expect((err as UpstreamUnavailableError).reason).toBe('too_large');
    await endless.closed(1);
  });

  it('reads an answer at the limit whole', async () => {
    standin = await startStandin();
    const json = 'y'.repeat(LIMIT - 2);
    standin.reply('/big', { body: JSON.stringify(json) });
    await expect(client(standin.url).getJson('/big')).resolves.toBe(json);
    standin.reply('/big', { body: JSON.stringify(`${json}z`) });
    expect(((await failure(client(standin.url).getJson('/big'))) as UpstreamUnavailableError).reason).toBe('too_large');
  });

  it('limitedFetch cuts a body read by other libraries and closes the socket', async () => {
    endless = await startEndlessUpstream();
    const response = await limitedFetch(LIMIT)(endless.url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toBeInstanceOf(BodyTooLargeError);
    await endless.closed(1);
  });
});
