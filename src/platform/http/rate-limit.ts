import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { andThen, type Maybe } from '../maybe.js';
import type { Surface } from './errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

/** After a failed Redis command, how long to count in memory before trying Redis again. */
const REDIS_RETRY_AFTER_MS = 1000;

/**
 * Fixed-window counter. `cost` 0 only reads, so a blocked address can be refused without counting.
 * The expiry is (re)set whenever missing, so a key can never outlive its window.
 */
const HIT_SCRIPT = `
local n
if tonumber(ARGV[2]) > 0 then
  n = redis.call('INCRBY', KEYS[1], ARGV[2])
else
  n = tonumber(redis.call('GET', KEYS[1]) or '0')
end
local ttl = redis.call('PTTL', KEYS[1])
if n > 0 and ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

export interface Count {
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export type RedisHealth = 'none' | 'ok' | 'unreachable';

/**
 * Counters in Redis so every process shares one budget; when Redis is unreachable or slow they continue
 * in this process's memory, so limits stay on and no request waits on a dead dependency.
 */
export class Counters {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;
  private degraded = false;
  private closed = false;
  private retryAt = 0;

  constructor(
    private readonly windowMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {
    this.sweeper = setInterval(() => this.sweep(), windowMs).unref();
    redis?.on('error', () => this.setDegraded(true));
    redis?.on('close', () => this.setDegraded(true));
    redis?.on('ready', () => {
      this.retryAt = 0;
      this.setDegraded(false);
    });
  }

  get health(): RedisHealth {
    return !this.redis ? 'none' : this.degraded ? 'unreachable' : 'ok';
  }

  /**
   * Counts a hit. Answered at once from memory (no Redis, or Redis down), so a request then costs no
   * promise: the rate-limit check runs on every request.
   */
  hit(bucket: string, cost = 1): Maybe<Count> {
    if (this.redis && this.redis.status === 'ready' && Date.now() >= this.retryAt)
      return this.hitRedis(this.redis, bucket, cost);
    if (this.redis) this.setDegraded(true);
    return this.hitMemory(bucket, cost);
  }

  private async hitRedis(redis: Redis, bucket: string, cost: number): Promise<Count> {
    try {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, `cipgate-rl:${bucket}`, this.windowMs, cost)) as [
        number,
        number,
      ];
      this.setDegraded(false);
      return { count, resetMs: ttl > 0 ? ttl : this.windowMs };
    } catch {
      this.retryAt = Date.now() + REDIS_RETRY_AFTER_MS;
      this.setDegraded(true);
      return this.hitMemory(bucket, cost);
    }
  }

  /** Asks Redis directly (bounded by the command timeout), for readiness probes. */
  async probe(): Promise<RedisHealth> {
    if (!this.redis) return 'none';
    try {
      if (this.redis.status !== 'ready') throw new Error(this.redis.status);
      await this.redis.ping();
      this.setDegraded(false);
    } catch {
      this.setDegraded(true);
    }
    return this.health;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    this.redis?.disconnect();
  }

  private hitMemory(bucket: string, cost: number): Count {
    const now = Date.now();
    let entry = this.memory.get(bucket);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + this.windowMs };
      if (cost > 0) this.memory.set(bucket, entry);
    }
    entry.count += cost;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }

  private sweep(): void {
    const now = Date.now();
    for (const [bucket, entry] of this.memory) if (entry.resetAt <= now) this.memory.delete(bucket);
  }

  private setDegraded(degraded: boolean): void {
    if (degraded === this.degraded || this.closed) return;
    this.degraded = degraded;
    if (degraded) this.log.warn('Redis unreachable: rate limits continue per process, in memory');
    else this.log.info('Redis reachable again: rate limits are shared again');
  }
}

/**
 * Who pays for a request: a verified key's partner (partner id, so all of a partner's keys share one
 * budget), otherwise the client address. Keys that fail verification also fill a smaller per-address
 * bucket, so guessing keys, or sending a made-up key per request, is limited too.
 *
 * The failed-key bucket throttles keys that fail, never a valid one: one address may be a proxy that
 * many partners share, so an attacker behind it must not lock them out. Past the budget, a key not known
 * to be valid (auth.ts remembers the keys it verified) is still verified, but each such lookup is first
 * charged to the address's own budget and refused once that is used up too, so an address cannot have
 * more keys looked up a window than it could make requests; a key that then fails is refused with 429.
 */
export class RateLimits {
  constructor(
    readonly counters: Counters,
    private readonly limits: Config['rateLimit'],
  ) {}

  /** Counts a request against its client address; its budget, or a 429 once the budget is spent. */
  address(request: Pick<FastifyRequest, 'ip'>, surface: Surface): Maybe<Budget> {
    return andThen(this.counters.hit(`ip:${request.ip}`), (count) =>
      this.budget('address', this.limits.publicMax, count, surface),
    );
  }

  /** Counts a request against its partner (all of a partner's keys share one budget). */
  partner(partnerId: string, surface: Surface): Maybe<Budget> {
    return andThen(this.counters.hit(`partner:${partnerId}`), (count) =>
      this.budget('partner', this.limits.partnerMax, count, surface),
    );
  }

  private budget(policy: Budget['policy'], quota: number, { count, resetMs }: Count, surface: Surface): Budget {
    const budget = {
      policy,
      quota,
      windowS: seconds(this.limits.windowMs),
      remaining: Math.max(0, quota - count),
      resetS: seconds(resetMs),
    };
    if (count > quota) throw tooMany(surface, budget);
    return budget;
  }

  /**
   * Before verifying a key that is not known to be valid (a known one skips this): nothing while the
   * address has failed-key budget left; past it, the lookup is charged to the address's budget, and
   * refused (429, before any lookup) only once that is used up as well.
   */
  refuseGuessing(request: Pick<FastifyRequest, 'ip'>, surface: Surface): Maybe<void> {
    return andThen(this.counters.hit(`fail:${request.ip}`, 0), ({ count, resetMs }) => {
      if (count < this.limits.failedAuthMax) return;
      return andThen(this.counters.hit(`ip:${request.ip}`), (address) => {
        if (address.count > this.limits.publicMax) throw tooManyFailures(surface, Math.min(resetMs, address.resetMs));
      });
    });
  }

  /** After a key failed verification: counts it against the address and the failed-key bucket. */
  async failedKey(request: Pick<FastifyRequest, 'ip'>, surface: Surface): Promise<Budget> {
    const budget = await this.address(request, surface);
    const { count, resetMs } = await this.counters.hit(`fail:${request.ip}`);
    if (count > this.limits.failedAuthMax) throw tooManyFailures(surface, resetMs);
    return budget;
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A request's rate-limit budget once it was counted: what its answer's RateLimit fields say. */
export interface Budget {
  /** Whose budget: a partner's (all its keys), or a client address's (keyless requests). */
  policy: 'partner' | 'address';
  /** Requests allowed per window. */
  quota: number;
  windowS: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
}

/**
 * The budget as the IETF httpapi RateLimit header fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "partner";q=1000;w=60` and `RateLimit: "partner";r=998;t=41`.
 */
export function rateLimitHeaders(budget: Budget): Record<string, string> {
  return {
    'ratelimit-policy': `"${budget.policy}";q=${budget.quota};w=${budget.windowS}`,
    ratelimit: `"${budget.policy}";r=${budget.remaining};t=${budget.resetS}`,
  };
}

const tooMany = (surface: Surface, budget: Budget) =>
  new AppError(
    'RATE_LIMITED',
    surface === 'partner'
      ? `Rate limit exceeded: ${budget.quota} requests per ${budget.windowS} s; retry in ${budget.resetS} s`
      : `Too many requests; retry in ${budget.resetS} s`,
    {},
    { 'retry-after': String(budget.resetS), ...rateLimitHeaders(budget) },
  );

const tooManyFailures = (surface: Surface, resetMs: number) =>
  new AppError(
    'RATE_LIMITED',
    surface === 'partner'
      ? `Too many requests with invalid API keys; retry in ${seconds(resetMs)} s`
      : `Too many requests; retry in ${seconds(resetMs)} s`,
    {},
    { 'retry-after': String(seconds(resetMs)) },
  );

/** Fastify takes a hop count at run time, but its types do not: the same rule as a function. */
export const trustProxyOption = (
  trust: Config['trustProxy'],
): boolean | string[] | ((_: string, hop: number) => boolean) =>
  typeof trust === 'number' ? (_address, hop) => hop < trust : trust;

/** Waits briefly for a first connection, so a healthy Redis is shared from the first request. */
async function connect(url: string, commandTimeout: number): Promise<Redis> {
  // Loaded only with REDIS_URL: a process counting in memory has no use for the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    connectTimeout: 1000,
    commandTimeout,
    // Fail at once while disconnected instead of queueing: the request counts in memory meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  // Without a listener ioredis prints every connection error; Counters records the state instead.
  redis.on('error', () => {});
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, 1000);
    redis.once('ready', done);
  });
  return redis;
}

/**
 * Decorates the app with `rateLimits`; the auth hook calls it once it knows who is asking, so limits apply
 * to verified identities and a 429 is decided before any work (and never costs credits).
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const redis = config.redisUrl ? await connect(config.redisUrl, config.rateLimit.redisTimeoutMs) : undefined;
  const counters = new Counters(config.rateLimit.windowMs, app.log, redis);
  await counters.probe(); // a start without Redis is logged once, like a later outage
  app.decorate('rateLimits', new RateLimits(counters, config.rateLimit));
  app.addHook('onClose', async () => counters.close());
});
