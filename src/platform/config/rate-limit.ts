import type { Reader } from './values.js';

/** Requests allowed per fixed window, by partner, by client address, and for keys that fail verification. */
export interface RateLimitSettings {
  windowMs: number;
  partnerMax: number;
  publicMax: number;
  failedAuthMax: number;
  /** How long a request waits on Redis before its counter falls back to the process's memory. */
  redisTimeoutMs: number;
}

export function rateLimitSection(read: Reader): RateLimitSettings {
  return {
    windowMs: read.int('RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    partnerMax: read.int('RATE_LIMIT_PARTNER_MAX', 600, 1, 10_000_000),
    publicMax: read.int('RATE_LIMIT_PUBLIC_MAX', 1200, 1, 10_000_000),
    failedAuthMax: read.int('RATE_LIMIT_FAILED_AUTH_MAX', 20, 1, 10_000_000),
    redisTimeoutMs: read.int('RATE_LIMIT_REDIS_TIMEOUT_MS', 50, 5, 5000),
  };
}
