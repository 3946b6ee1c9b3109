/**
 * What the LI.FI and Across provider tests share: a fresh upstream stand-in per test, resilience
 * settings short enough for a loopback upstream, and the documented USDC Arbitrum → Base transfer
 * their recorded fixtures answer.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { handle } from '../../../../test/support/handle.js';
import { type Standin, startStandin } from '../../../../test/support/http-standin.js';
import { UpstreamUnavailableError } from '../../../platform/upstream/index.js';
import type { QuoteRequest } from './types.js';

/** The wallet the recorded LI.FI and Across fixtures were quoted for. */
export const FIXTURE_WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0';
export const USDC_ARB = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** A stand-in started before each test of the enclosing scope and closed after it. */
export function standinPerTest(): Standin {
  let started: Standin | undefined;
  beforeEach(async () => {
    started = await startStandin();
  });
  afterEach(() => started?.close());
  return handle(() => started, 'the upstream stand-in');
}

/** A provider's options against `upstream`: enabled, one retry, and backoff in milliseconds. */
export function standinProviderOptions(upstream: Standin, path: string) {
  return {
    baseUrl: `${upstream.url}${path}`,
    enabled: true,
    timeoutMs: 150,
    retries: 1,
    http: { backoff: { baseMs: 2, maxMs: 5 }, breaker: { failureThreshold: 3, cooldownMs: 60_000 } },
  };
}

/** 100 USDC from Arbitrum to Base, as the recorded fixtures quote it. */
export const USDC_REQUEST: Readonly<QuoteRequest> = {
  fromChain: 'eip155:42161',
  toChain: 'eip155:8453',
  fromToken: USDC_ARB,
  toToken: USDC_BASE,
  fromAmount: 100_000_000n,
  fromAddress: FIXTURE_WALLET,
  toAddress: FIXTURE_WALLET,
  slippage: 0.005,
  order: 'CHEAPEST',
  allowBridges: [],
  denyBridges: [],
  maxRoutes: 5,
};

/** What `p` rejects with; a test failure when it resolves. */
export async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

/** `p` rejects with UpstreamUnavailableError for `reason` (a timeout, the circuit open, …). */
export async function expectUnavailable(p: Promise<unknown>, reason: string): Promise<UpstreamUnavailableError> {
  const err = await failure(p);
  expect(err).toBeInstanceOf(UpstreamUnavailableError);
  expect((err as UpstreamUnavailableError).reason).toBe(reason);
  return err as UpstreamUnavailableError;
}
