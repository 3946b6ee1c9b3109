import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { checkTarget, refusedAddress } from './target.js';

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
      expect(await refusal(url)).toMatch(/loopback, private or link-local|does not resolve/);
    }
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
    expect(refusedAddress('::ffff:192.168.0.1', strict)).toMatch(/192\.168\.0\.1/);
    expect(refusedAddress('127.0.0.1', tests)).toBeNull();
  });
});
