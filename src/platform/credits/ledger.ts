import { sweepExpiredLeases } from '../db/ledger-statements.js';
import type { Database } from '../db/orm.js';
import type { Charge, CreditPath, Reservation, ReserveResult, Within } from './credit-path.js';
import type { LeaseOptions } from './lease.js';
import { LeasedCredits } from './lease-pool.js';
import { PerRequestCredits, sweepExpiredReservations } from './per-request.js';

export type { Charge, Reservation, ReserveResult } from './credit-path.js';
export type { LeaseOptions } from './lease.js';

/**
 * The credit ledger: `reserve` holds a paid operation's price before it runs, `settle` charges what was
 * answered and releases the rest, `sweepExpired` releases what a crashed process held. Holds and charges
 * go through one `CreditPath`: per request, or from leased blocks when `lease.maxCredits` > 0
 * (credit-path.ts, per-request.ts, lease-pool.ts). This class adds what holds for both: settlements
 * retried until written, and waiting for them.
 */
export class CreditLedger {
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();
  private readonly credits: CreditPath;

  constructor(
    private readonly db: Database,
    private readonly reservationTtlMs: number,
    lease?: LeaseOptions,
  ) {
    const perRequest = new PerRequestCredits(db, reservationTtlMs);
    this.credits =
      lease && lease.maxCredits > 0 ? new LeasedCredits(db, reservationTtlMs, lease, perRequest) : perRequest;
  }

  reserve(
    partnerId: string,
    credits: number,
    operation: string,
    requestId: string,
    options: { lease?: boolean } = {},
  ): Promise<ReserveResult> {
    return this.credits.reserve(partnerId, credits, operation, requestId, options);
  }

  /**
   * Charges `charges` (at most the reserved amount) and releases the remainder of the hold. Safe to call
   * again for the same reservation (a retry after a lost reply): charges carry the reservation id, so a
   * second settlement finds them and charges nothing more. `within` runs in the same transaction, so
   * whatever it records (an idempotent answer) exists exactly when the charge does.
   */
  settle(reservation: Reservation, charges: Charge[], requestId: string, within?: Within): Promise<number> {
    return this.credits.settle(reservation, charges, requestId, within);
  }

  /**
   * Settles, retrying with back-off while the database refuses (out of connections, restarting), for up
   * to the reservation TTL: an answered request must be charged, and the hold keeps its credits safe
   * meanwhile. Never rejects; `whenSettled` lets a reader wait for a partner's settlements in flight.
   */
  settleReliably(
    reservation: Reservation,
    charges: Charge[],
    requestId: string,
    options: { within?: Within; onError?: (err: unknown, attempt: number) => void } = {},
  ): Promise<number | undefined> {
    const deadline = Date.now() + this.reservationTtlMs;
    const attempt = async (n: number): Promise<number | undefined> => {
      try {
        return await this.settle(reservation, charges, requestId, options.within);
      } catch (err) {
        options.onError?.(err, n);
        const wait = Math.min(2000, 25 * 2 ** n);
        if (Date.now() + wait > deadline) return undefined;
        await new Promise((resolve) => setTimeout(resolve, wait));
        return attempt(n + 1);
      }
    };
    const settling = attempt(0);
    const inFlight = this.inFlight.get(reservation.partnerId) ?? new Set();
    this.inFlight.set(reservation.partnerId, inFlight);
    inFlight.add(settling);
    void settling.finally(() => {
      inFlight.delete(settling);
      if (!inFlight.size) this.inFlight.delete(reservation.partnerId);
    });
    return settling;
  }

  /**
   * Resolves once every settlement of this partner (of every partner, without one) started by this
   * process so far has finished and its charges are written to the database.
   */
  async whenSettled(partnerId?: string): Promise<void> {
    await this.settling(partnerId);
    await this.credits.flushed(partnerId);
  }

  /**
   * Reads the partner's row as it is once this process's charges are written, without writing them:
   * `unwritten` is what this process settled and has not written, never counted twice with the row nor
   * missed. Charges of other processes reach the row within their flush interval.
   */
  async readSettled<T>(partnerId: string, read: () => Promise<T>): Promise<{ value: T; unwritten: number }> {
    await this.settling(partnerId);
    return this.credits.readSettled(partnerId, read);
  }

  release(reservation: Reservation, requestId: string): Promise<number> {
    return this.settle(reservation, [], requestId);
  }

  /** Releases holds and leases whose process crashed (they expired); returns how many. */
  async sweepExpired(now = new Date()): Promise<number> {
    const swept = await sweepExpiredReservations(this.db, now);
    return swept + (await sweepExpiredLeases(this.db, now));
  }

  /**
   * The partner's available credits (balance − reserved, plus what this process leased and holds for
   * nobody); informational. `justRead` is the row's figure as the caller read it a moment ago in the same
   * request, used instead of reading it again when no lease is held.
   */
  available(partnerId: string, justRead?: number): Promise<number> {
    return this.credits.available(partnerId, justRead);
  }

  /** Stops leasing, writes every charge and hands back every lease. */
  close(): Promise<void> {
    return this.credits.close(this.settling());
  }

  /** Settlements of the partner (of every partner) under way now. */
  private settling(partnerId?: string): Promise<unknown> {
    const sets = partnerId ? [this.inFlight.get(partnerId)] : [...this.inFlight.values()];
    return Promise.all(sets.flatMap((set) => [...(set ?? [])]));
  }
}
