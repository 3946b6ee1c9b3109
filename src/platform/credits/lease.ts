import type { LeaseCharge } from '../db/ledger-statements.js';

/** How this process leases credits of busy partners (see lease-pool.ts). */
export interface LeaseOptions {
  /** Largest block one lease takes (CREDIT_LEASE_MAX_CREDITS); 0 turns leasing off. */
  maxCredits: number;
  /** Longest a settled charge waits to be written (CREDIT_LEASE_FLUSH_MS). */
  flushMs: number;
  /** First block of a partner; also the least worth leasing. */
  minCredits?: number;
  /** Reserves of one partner within a second from which this process leases its credits. */
  hotCalls?: number;
  /** A lease takes at most 1/share of the partner's available credits. */
  share?: number;
  /** A lease unused for this long is handed back. */
  idleMs?: number;
  /** A lease with this many charges waiting is flushed at once. */
  flushAfterCharges?: number;
  /** How long `available` may reuse the partner row's figure while this process leases its credits. */
  availableCacheMs?: number;
  /** Off only in tests that stand for a process that stopped running (nothing flushes or renews). */
  timers?: boolean;
  /** A flush or hand-back that failed (it is retried on the next tick). */
  onError?: (err: unknown) => void;
}

export type LeaseSettings = Required<Omit<LeaseOptions, 'onError'>> & Pick<LeaseOptions, 'onError'>;

export const leaseSettings = (lease: LeaseOptions): LeaseSettings => ({
  maxCredits: lease.maxCredits,
  flushMs: lease.flushMs ?? 500,
  minCredits: lease.minCredits ?? 16,
  hotCalls: lease.hotCalls ?? 8,
  share: lease.share ?? 4,
  idleMs: lease.idleMs ?? 1000,
  flushAfterCharges: lease.flushAfterCharges ?? 256,
  availableCacheMs: lease.availableCacheMs ?? 250,
  timers: lease.timers ?? true,
  onError: lease.onError,
});

/** One lease of this process: a `credit_lease` row and what is known of it in memory. */
export interface Lease {
  id: string;
  partnerId: string;
  /** What the lease row holds, as far as this process knows (never more than the row). */
  credits: number;
  /** Σ holds taken from it and not settled. */
  held: number;
  /** Σ charges settled and not yet known to be written. */
  unflushed: number;
  /** Credits being handed back by the flush in flight. */
  returning: number;
  pending: LeaseCharge[];
  /** The batch sent and not yet known to be applied: retried as it is, with the same batch count. */
  batch: Batch | undefined;
  seq: number;
  expiresAt: number;
  lastUsed: number;
  /** Takes no new holds; deleted once its holds are settled. */
  retired: boolean;
  /** The row is deleted (handed back, or swept): holds still on it settle per request. */
  gone: boolean;
  flushing: Promise<void> | undefined;
}

export const newLease = (id: string, partnerId: string, credits: number, expiresAt: number): Lease => ({
  id,
  partnerId,
  credits,
  held: 0,
  unflushed: 0,
  returning: 0,
  pending: [],
  batch: undefined,
  seq: 0,
  expiresAt,
  lastUsed: Date.now(),
  retired: false,
  gone: false,
  flushing: undefined,
});

/** A lease's credits that no hold, charge or hand-back claims. */
export const unclaimed = (lease: Lease) => lease.credits - lease.held - lease.unflushed - lease.returning;

export interface Batch {
  seq: number;
  charges: LeaseCharge[];
  spent: number;
  returned: number;
  retire: boolean;
  expiresAt: number;
}

export interface LeasedHold {
  lease: Lease;
  credits: number;
  at: number;
  /** Set once settled, until its charge is written: a repeated settle answers it instead of charging. */
  settled?: number;
}

/** This process's leases of one partner and the demand that sizes them. */
export interface PartnerLeases {
  current: Lease | undefined;
  /** Every lease of this process for the partner whose row may still exist. */
  leases: Set<Lease>;
  acquiring: Promise<boolean> | undefined;
  windowStart: number;
  calls: number;
  credits: number;
  lastCalls: number;
  lastCredits: number;
  lastSize: number;
  lastLeasedAt: number;
  noLeaseUntil: number;
  /** Bumped by every write of this process that moves credits between the row and its leases. */
  version: number;
  cached: { available: number; at: number; version: number } | undefined;
}

/** What this process holds in memory of its leases: per partner, and per leased hold. */
export class LeaseBook {
  readonly partners = new Map<string, PartnerLeases>();
  readonly holds = new Map<string, LeasedHold>();

  state(partnerId: string): PartnerLeases {
    let state = this.partners.get(partnerId);
    if (!state) {
      state = {
        current: undefined,
        leases: new Set(),
        acquiring: undefined,
        windowStart: 0,
        calls: 0,
        credits: 0,
        lastCalls: 0,
        lastCredits: 0,
        lastSize: 0,
        lastLeasedAt: 0,
        noLeaseUntil: 0,
        version: 0,
        cached: undefined,
      };
      this.partners.set(partnerId, state);
    }
    return state;
  }

  /** The leases of the partner (of every partner, without one) whose row may still exist. */
  leases(partnerId?: string): Lease[] {
    const states = partnerId ? [this.partners.get(partnerId)] : [...this.partners.values()];
    return states.flatMap((state) => [...(state?.leases ?? [])]);
  }

  /** A hold released without a charge. */
  dropHold(id: string, hold: LeasedHold): void {
    this.holds.delete(id);
    hold.lease.held -= hold.credits;
  }
}
