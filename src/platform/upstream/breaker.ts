/**
 * Consecutive-failure circuit breaker. While an upstream is down, failing fast keeps our own latency
 * low and stops us from piling retries onto a service that is trying to recover.
 *
 * closed → (threshold consecutive failures) → open → (cool-down elapsed) → half-open: exactly one
 * probe call is let through; its success closes the circuit, its failure re-opens it for a new
 * cool-down. Other calls arriving while the probe is in flight fail fast.
 */
export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failed calls that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before a probe is allowed. */
  cooldownMs: number;
  /** Injected clock, for tests. */
  now?: () => number;
}

export type Admission = { allowed: true; probe: boolean } | { allowed: false; retryInMs: number };

export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private current: BreakerState = 'closed';
  private probeInFlight = false;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    if (!(options.failureThreshold >= 1)) throw new RangeError('failureThreshold must be at least 1');
    if (!(options.cooldownMs >= 0)) throw new RangeError('cooldownMs must not be negative');
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    return this.current;
  }

  /** Asks to make a call. A probe admission must be settled with `success` or `failure`. */
  admit(): Admission {
    if (this.current === 'closed') return { allowed: true, probe: false };
    if (this.current === 'open') {
      const elapsed = this.now() - this.openedAt;
      if (elapsed < this.options.cooldownMs) return { allowed: false, retryInMs: this.options.cooldownMs - elapsed };
      this.current = 'half-open';
    }
    if (this.probeInFlight) return { allowed: false, retryInMs: 0 };
    this.probeInFlight = true;
    return { allowed: true, probe: true };
  }

  success(): void {
    this.failures = 0;
    this.probeInFlight = false;
    this.current = 'closed';
  }

  failure(): void {
    this.probeInFlight = false;
    if (this.current === 'half-open') {
      this.trip();
      return;
    }
    this.failures += 1;
    if (this.current === 'closed' && this.failures >= this.options.failureThreshold) this.trip();
  }

  /**
   * A probe ended without telling us anything about the upstream (the caller gave up): let the next
   * call probe instead of leaving the circuit stuck half-open.
   */
  release(): void {
    this.probeInFlight = false;
  }

  private trip(): void {
    this.current = 'open';
    this.openedAt = this.now();
    this.failures = 0;
  }
}
