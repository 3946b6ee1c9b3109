import { chargeFromLease, type Settlement, takeLease } from '../db/ledger-statements.js';
import type { Database } from '../db/orm.js';
import {
  type Charge,
  type CreditPath,
  newId,
  type Reservation,
  type ReserveResult,
  type Within,
} from './credit-path.js';
import {
  type Lease,
  LeaseBook,
  type LeasedHold,
  type LeaseOptions,
  type LeaseSettings,
  leaseSettings,
  newLease,
  type PartnerLeases,
  unclaimed,
} from './lease.js';
import { LeaseWriter } from './lease-writer.js';
import { chargedEarlier, type PerRequestCredits, settlementOf } from './per-request.js';

/**
 * Leased credits. Per request, each paid call writes the partner row twice under its lock, which caps one
 * partner's calls however many cores serve it. For a busy partner this process leases a block of its
 * credits in one write (reserved on the row, so no other process can spend them), takes and settles holds
 * from it in memory, and `LeaseWriter` writes the charges in batches. A block never exceeds a `share`-th of
 * what is available, so other processes find credits too and a small balance stays per request (exact).
 */
export class LeasedCredits implements CreditPath {
  private readonly settings: LeaseSettings;
  private readonly book = new LeaseBook();
  private readonly writer: LeaseWriter;
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly reservationTtlMs: number,
    options: LeaseOptions,
    private readonly perRequest: PerRequestCredits,
  ) {
    this.settings = leaseSettings(options);
    this.writer = new LeaseWriter(db, reservationTtlMs, this.book, perRequest, this.settings.onError);
    if (this.settings.maxCredits > 0 && this.settings.timers) {
      this.timer = setInterval(() => void this.tick(), this.settings.flushMs);
      this.timer.unref();
    }
  }

  async reserve(
    partnerId: string,
    credits: number,
    operation: string,
    requestId: string,
    options: { lease?: boolean } = {},
  ): Promise<ReserveResult> {
    if (options.lease !== false && this.settings.maxCredits > 0 && credits > 0 && credits <= this.settings.maxCredits) {
      const reservation = await this.reserveFromLease(partnerId, credits);
      if (reservation) return { ok: true, reservation };
    }
    const id = newId();
    const take = () => this.perRequest.hold(partnerId, credits, operation, requestId, id);
    // Refused: credits this process leased and holds for nothing may be what is missing.
    const reservation = (await take()) ?? ((await this.handBack(partnerId)) ? await take() : undefined);
    if (reservation) return { ok: true, reservation };
    return { ok: false, available: await this.available(partnerId) };
  }

  /** A leased hold is settled in memory (written by the lease's next flush) unless `within` is given. */
  async settle(reservation: Reservation, charges: Charge[], requestId: string, within?: Within): Promise<number> {
    const s = settlementOf(reservation, charges, requestId);
    const leased = this.book.holds.get(reservation.id);
    if (leased?.settled !== undefined) return leased.settled;
    if (leased && !leased.lease.gone) {
      if (within) return this.settleLeasedWithin(leased, s, within);
      this.settleLeased(leased, s);
      return s.total;
    }
    if (leased) this.book.dropHold(reservation.id, leased);
    return this.perRequest.settleHold(s, within);
  }

  /**
   * The partner row's (balance − reserved) plus what this process's leases hold for nobody. While this
   * process leases the partner's credits only other processes change the row's figure, so it may be
   * reused for `availableCacheMs`.
   */
  async available(partnerId: string, justRead?: number): Promise<number> {
    const state = this.book.partners.get(partnerId);
    const leases = [...(state?.leases ?? [])].filter((lease) => !lease.gone);
    if (!state || !leases.length) return justRead ?? this.perRequest.readAvailable(partnerId);
    const now = Date.now();
    let row = state.cached;
    if (!row || row.version !== state.version || now - row.at > this.settings.availableCacheMs) {
      const version = state.version;
      const read = await this.perRequest.readAvailable(partnerId);
      row = { available: read, at: now, version };
      if (state.version === version) state.cached = row;
    }
    return row.available + leases.reduce((sum, lease) => sum + unclaimed(lease) + lease.returning, 0);
  }

  async flushed(partnerId?: string): Promise<void> {
    await Promise.all(this.book.leases(partnerId).map((lease) => this.writer.drain(lease)));
    await this.writer.placeUnplaced(partnerId);
  }

  /**
   * `read` runs while no flush of the partner's leases is in flight (again if one ran meanwhile), so the
   * row and `unwritten` never count a charge twice or miss it.
   */
  async readSettled<T>(partnerId: string, read: () => Promise<T>): Promise<{ value: T; unwritten: number }> {
    for (;;) {
      const state = this.book.partners.get(partnerId);
      const flushing = [...(state?.leases ?? [])].flatMap((lease) => (lease.flushing ? [lease.flushing] : []));
      if (flushing.length) {
        await Promise.all(flushing);
        continue;
      }
      const version = state?.version;
      const value = await read();
      const after = this.book.partners.get(partnerId);
      if (after?.version !== version || [...(after?.leases ?? [])].some((lease) => lease.flushing)) continue;
      let unwritten = 0;
      for (const lease of after?.leases ?? []) unwritten += lease.unflushed;
      return { value, unwritten };
    }
  }

  /** A lease still holding credits for a request in flight hands back the rest and expires. */
  async close(settling: Promise<unknown>): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await settling;
    await this.flushed();
    for (let attempt = 0; attempt < 5; attempt++) {
      for (const state of this.book.partners.values()) {
        for (const lease of state.leases) this.retire(state, lease);
      }
      const live = this.book.leases();
      await Promise.all(live.map((lease) => this.writer.drain(lease)));
      await Promise.all([this.writer.placeUnplaced(), this.writer.returnOrphans()]);
      const left = live.filter((lease) => !lease.gone && lease.held === 0);
      if (!left.length && !this.writer.waiting) return;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }

  /** A hold from this process's lease of the partner, taking a lease if the partner is busy enough. */
  private async reserveFromLease(partnerId: string, credits: number): Promise<Reservation | undefined> {
    const state = this.book.state(partnerId);
    const now = Date.now();
    if (now - state.windowStart >= 1000) {
      const adjacent = now - state.windowStart < 2000;
      state.lastCalls = adjacent ? state.calls : 0;
      state.lastCredits = adjacent ? state.credits : 0;
      state.calls = 0;
      state.credits = 0;
      state.windowStart = now;
    }
    state.calls += 1;
    state.credits += credits;
    for (let tries = 0; tries < 4; tries++) {
      const lease = state.current;
      if (lease && !lease.retired && !lease.gone && unclaimed(lease) >= credits) {
        const id = newId();
        lease.held += credits;
        lease.lastUsed = Date.now();
        this.book.holds.set(id, { lease, credits, at: lease.lastUsed });
        return { id, partnerId, credits };
      }
      if (state.acquiring) {
        await state.acquiring;
        continue;
      }
      const busy = Math.max(state.calls, state.lastCalls) >= this.settings.hotCalls;
      if (this.closed || !busy || Date.now() < state.noLeaseUntil) return undefined;
      state.acquiring = this.acquire(state, partnerId, credits).finally(() => {
        state.acquiring = undefined;
      });
      if (!(await state.acquiring)) return undefined;
    }
    return undefined;
  }

  private async acquire(state: PartnerLeases, partnerId: string, credits: number): Promise<boolean> {
    const { minCredits, maxCredits, share, idleMs } = this.settings;
    const now = Date.now();
    // Roughly a second of this partner's demand, doubling while blocks run out within a second.
    let wanted = Math.max(minCredits, state.credits, state.lastCredits);
    if (now - state.lastLeasedAt < 1000) wanted = Math.max(wanted, 2 * state.lastSize);
    wanted = Math.min(maxCredits, Math.max(wanted, credits));
    const least = Math.max(credits, Math.min(minCredits, maxCredits));
    const id = newId();
    const expiresAt = now + this.reservationTtlMs;
    let size: number;
    try {
      const at = (ms: number) => new Date(ms).toISOString();
      size = await takeLease(this.db, {
        id,
        partnerId,
        wanted,
        least,
        share,
        expiresAt: at(expiresAt),
        createdAt: at(now),
      });
    } catch (err) {
      // It may have been taken all the same: hand it back if it exists.
      this.writer.orphan(id);
      this.settings.onError?.(err);
      state.noLeaseUntil = Date.now() + idleMs;
      return false;
    } finally {
      state.version += 1;
    }
    if (!size) {
      // Too little available to share: per-request holds for a while (they are exact across processes).
      state.noLeaseUntil = Date.now() + idleMs;
      return false;
    }
    const lease = newLease(id, partnerId, size, expiresAt);
    state.lastSize = size;
    state.lastLeasedAt = now;
    const previous = state.current;
    state.current = lease;
    state.leases.add(lease);
    if (previous) this.retire(state, previous);
    return true;
  }

  /** No new holds from this lease: its unheld credits go back now, the lease once its holds settle. */
  private retire(state: PartnerLeases, lease: Lease): void {
    lease.retired = true;
    if (state.current === lease) state.current = undefined;
    if (!lease.gone) void this.writer.flush(lease);
  }

  /** Hands back the unheld credits of this process's leases of the partner; true if there were any. */
  private async handBack(partnerId: string): Promise<boolean> {
    const state = this.book.partners.get(partnerId);
    const spare = [...(state?.leases ?? [])].filter((lease) => !lease.gone && unclaimed(lease) > 0);
    if (!state || !spare.length) return false;
    state.noLeaseUntil = Date.now() + this.settings.idleMs;
    for (const lease of spare) this.retire(state, lease);
    await Promise.all(spare.map((lease) => this.writer.drain(lease)));
    return true;
  }

  private settleLeased(hold: LeasedHold, s: Settlement): void {
    const { lease } = hold;
    lease.held -= hold.credits;
    lease.lastUsed = Date.now();
    if (s.total > 0) {
      hold.settled = s.total;
      lease.unflushed += s.total;
      for (const c of s.charges) {
        if (c.credits > 0)
          lease.pending.push({ ...c, reservationId: s.reservationId, requestId: s.requestId, at: s.at });
      }
    } else this.book.holds.delete(s.reservationId);
    const last = lease.retired && lease.held === 0;
    if (!lease.flushing && (last || lease.pending.length >= this.settings.flushAfterCharges))
      void this.writer.flush(lease);
  }

  /** A leased hold settled together with `within`: its own transaction, charged against the lease. */
  private async settleLeasedWithin(hold: LeasedHold, s: Settlement, within: Within): Promise<number> {
    // Charged by an earlier attempt whose reply was lost? Read before the transaction: attempts of one
    // settlement follow each other, and SQLite's transaction must write before it reads (see takeLease).
    const earlier = s.total > 0 && (await chargedEarlier(this.db, s.reservationId));
    const total = await this.db.transaction(async (tx) => {
      if (
        s.total > 0 &&
        !earlier &&
        !(await chargeFromLease(tx, hold.lease.id, s)) &&
        !(await this.perRequest.chargeUnheld(tx, s, true))
      )
        return 0;
      await within(tx);
      return s.total;
    });
    // Written (by this attempt or one whose reply was lost): the lease row has `total` less, or, if the
    // lease was swept, this process counts a lease smaller than the row, which is harmless.
    const { lease } = hold;
    this.book.holds.delete(s.reservationId);
    lease.held -= hold.credits;
    lease.credits -= total;
    lease.lastUsed = Date.now();
    this.book.state(lease.partnerId).version += 1;
    if (lease.retired && lease.held === 0 && !lease.flushing) void this.writer.flush(lease);
    return total;
  }

  /** Every `flushMs`: write charges, renew leases in use, hand back idle ones, expire forgotten holds. */
  private async tick(): Promise<void> {
    const now = Date.now();
    for (const [id, hold] of this.book.holds) {
      // A request that never settled (its caller lost it): released, as the sweeper does in the database.
      if (hold.settled === undefined && now - hold.at > this.reservationTtlMs) this.book.dropHold(id, hold);
    }
    for (const [partnerId, state] of this.book.partners) {
      for (const lease of state.leases) {
        if (!lease.retired && lease.held === 0 && now - lease.lastUsed >= this.settings.idleMs)
          this.retire(state, lease);
        else if (!lease.flushing) void this.writer.flush(lease);
      }
      if (!state.leases.size && !state.acquiring && now - state.windowStart > 2000)
        this.book.partners.delete(partnerId);
    }
    await this.writer.writeWaiting();
  }
}
