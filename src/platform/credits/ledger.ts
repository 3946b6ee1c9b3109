import * as crypto from 'node:crypto';
import {
  chargeFromLease,
  flushLease,
  insertCharges,
  type LeaseCharge,
  reserveCredits,
  type Settlement,
  settleHeld,
  settleHeldWithin,
  sweepExpiredLeases,
  takeLease,
} from '../db/ledger-statements.js';
import type { Database } from '../db/orm.js';

/**
 * Reservation and lease ids. Every paid call's reservation id becomes a key of the ledger's
 * `reservation_id` index: time-ordered UUIDs (v7) land at the index's end, where random ones (v4) each
 * dirtied a page of their own. A lease flush of 200 charges took 7.5 → 0.85 ms with its commit on
 * SQLite (372,000 entries). Node before 24.16 has no `crypto.randomUUIDv7` and gets random ids, just as valid.
 */
const newId: () => string = crypto.randomUUIDv7 ?? crypto.randomUUID;

/**
 * The credit ledger. A paid request goes through three steps, each one atomic in the database so that
 * any number of processes sharing it can never overspend a balance:
 *
 *  1. `reserve`: before the operation runs, move its price from available to reserved, only if the
 *     balance minus what is already reserved covers it. A reservation row remembers the hold.
 *  2. `settle`: after the answer, charge what succeeded (balance → usage, one ledger row per charge) and
 *     release the rest. `creditBalance + creditUsage` stays equal to the credits granted throughout.
 *  3. `sweepExpired`: holds of a process that died mid-request are released after a timeout.
 *
 * **Leases** (with `LeaseOptions`). Done per request, those steps are two writes on the partner row per
 * paid call, and the row's lock, held through each commit, caps one partner at roughly a thousand calls
 * a second however many cores serve it. So a process that sees a partner busy (`hotCalls` reserves in a
 * second) leases a block of its credits instead: one write moves the block to reserved on the partner
 * row and records it in `credit_lease`, so the partner row still reads `credit_reserved = Σ reservations
 * + Σ leases` and no other process can spend those credits. Holds are then taken from the block in
 * memory, and `settle` records each charge in memory; every `flushMs` (at once past `flushAfterCharges`
 * charges) one transaction writes all of a lease's charges: the ledger rows in one insert, balance →
 * usage on the partner row, and the lease's credits, batch count (`flushed_seq`) and expiry. The invariant
 * holds in every committed state: a flush moves the same S from balance to usage and from reserved (the
 * lease) away. A flush retried after a lost reply names the batch count it expects, so it cannot apply
 * twice; on a mismatch the lease row (or, once it is gone, the batch's first ledger row) tells whether it
 * did. Other processes see a charge once it is flushed, within `flushMs`; `whenSettled(partner)` flushes
 * this process's charges of that partner first, so `/partners/stats` shows the caller's own at once.
 *
 * Sizing and fairness: the first block is `minCredits`, each next one taken within a second twice the
 * last (or the last second's demand), up to `maxCredits`, and never more than a `share`-th of what the
 * partner has available, so other processes find credits too and a small balance is never leased at all
 * (below `share × minCredits` available every call takes today's per-request path, exact across
 * processes). A lease unused for `idleMs` is handed back on the next tick, so a refusal in one process
 * while another holds idle credits lasts about a second; a refusal in this process first hands back this
 * process's own unheld lease credits and tries again.
 *
 * Crashes: a lease lives `reservationTtlMs`, renewed by its process's flushes; a process that died leaves
 * it to `sweepExpired`, which releases its credits once it expires. Its charges not yet flushed (at most
 * `flushMs` of them) are lost: an under-charge, never an overspend. `close()` flushes and hands back every
 * lease. A request that asks for it (`reserve(…, { lease: false })`) or that costs more than a block
 * takes the per-request path; a leased hold settled with `within` (an idempotent answer, stored in the
 * charging transaction) is charged in its own transaction against the lease, exactly as per request.
 */
export interface Reservation {
  id: string;
  partnerId: string;
  credits: number;
}

export interface Charge {
  /** What was charged, e.g. the root field `identitySearch`. */
  operation: string;
  credits: number;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; available: number };

type Tx = Pick<Database, 'query' | 'run'>;

/** How this process leases credits of busy partners (see the class comment). */
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

interface Lease {
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

interface Batch {
  seq: number;
  charges: LeaseCharge[];
  spent: number;
  returned: number;
  retire: boolean;
  expiresAt: number;
}

interface LeasedHold {
  lease: Lease;
  credits: number;
  at: number;
  /** Set once settled, until its charge is written: a repeated settle answers it instead of charging. */
  settled?: number;
}

interface PartnerLeases {
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

const available = (lease: Lease) => lease.credits - lease.held - lease.unflushed - lease.returning;

export class CreditLedger {
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();
  private readonly leasing: Required<Omit<LeaseOptions, 'onError'>> & Pick<LeaseOptions, 'onError'>;
  private readonly partners = new Map<string, PartnerLeases>();
  private readonly holds = new Map<string, LeasedHold>();
  /** Leases whose taking failed without an answer: they may exist, so they are handed back. */
  private readonly orphans = new Set<string>();
  /** Charges of a lease that was swept before they were written: charged per request, if covered. */
  private readonly unplaced: Settlement[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly reservationTtlMs: number,
    lease?: LeaseOptions,
  ) {
    this.leasing = {
      maxCredits: lease?.maxCredits ?? 0,
      flushMs: lease?.flushMs ?? 500,
      minCredits: lease?.minCredits ?? 16,
      hotCalls: lease?.hotCalls ?? 8,
      share: lease?.share ?? 4,
      idleMs: lease?.idleMs ?? 1000,
      flushAfterCharges: lease?.flushAfterCharges ?? 256,
      availableCacheMs: lease?.availableCacheMs ?? 250,
      timers: lease?.timers ?? true,
      onError: lease?.onError,
    };
    if (this.leasing.maxCredits > 0 && this.leasing.timers) {
      this.timer = setInterval(() => void this.tick(), this.leasing.flushMs);
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
    if (options.lease !== false && this.leasing.maxCredits > 0 && credits > 0 && credits <= this.leasing.maxCredits) {
      const reservation = await this.reserveFromLease(partnerId, credits);
      if (reservation) return { ok: true, reservation };
    }
    const id = newId();
    const hold = { id, partnerId, credits, operation: operation.slice(0, 255), requestId };
    const take = () => reserveCredits(this.db, { ...hold, expiresAt: isoIn(this.reservationTtlMs) });
    // Refused: credits this process leased and holds for nothing may be what is missing.
    if ((await take()) || ((await this.handBack(partnerId)) && (await take())))
      return { ok: true, reservation: { id, partnerId, credits } };
    return { ok: false, available: await this.available(partnerId) };
  }

  /**
   * Charges `charges` (at most the reserved amount) and releases the remainder of the hold. Safe to call
   * again for the same reservation (a retry after a lost reply): charges carry the reservation id, so a
   * second settlement finds them and charges nothing more. `within` runs in the same transaction, so
   * whatever it records (an idempotent answer) exists exactly when the charge does. A hold taken from a
   * lease is settled in memory (written by the lease's next flush) unless `within` is given.
   */
  async settle(
    reservation: Reservation,
    charges: Charge[],
    requestId: string,
    within?: (tx: Tx) => Promise<void>,
  ): Promise<number> {
    const total = charges.reduce((sum, c) => sum + c.credits, 0);
    if (total > reservation.credits) throw new Error(`charge ${total} exceeds reservation ${reservation.credits}`);
    const at = new Date().toISOString();
    const settlement: Settlement = {
      reservationId: reservation.id,
      partnerId: reservation.partnerId,
      reserved: reservation.credits,
      total,
      charges: charges.map((c) => ({ operation: c.operation.slice(0, 255), credits: c.credits })),
      requestId,
      at,
    };
    const leased = this.holds.get(reservation.id);
    if (leased?.settled !== undefined) return leased.settled;
    if (leased && !leased.lease.gone) {
      if (within) return this.settleLeasedWithin(leased, settlement, within);
      this.settleLeased(leased, settlement);
      return total;
    }
    if (leased) this.dropHold(reservation.id, leased);
    // The common case (the hold is still there, nothing to record beside it) is one step of its own.
    if (!within && (await settleHeld(this.db, settlement))) return total;
    return this.db.transaction(async (tx) => {
      if (!(await settleHeldWithin(tx, settlement)) && total > 0 && !(await this.chargeUnheld(tx, settlement)))
        return 0;
      if (within) await within(tx);
      return total;
    });
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
    options: { within?: (tx: Tx) => Promise<void>; onError?: (err: unknown, attempt: number) => void } = {},
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
    const sets = partnerId ? [this.inFlight.get(partnerId)] : [...this.inFlight.values()];
    await Promise.all(sets.flatMap((set) => [...(set ?? [])]));
    const states = partnerId ? [this.partners.get(partnerId)] : [...this.partners.values()];
    await Promise.all(states.flatMap((state) => [...(state?.leases ?? [])].map((lease) => this.drain(lease))));
    await this.placeUnplaced(partnerId);
  }

  /**
   * Reads the partner's row as it is once this process's charges are written, without writing them:
   * `read` runs while no flush of the partner's leases is in flight (again if one ran meanwhile), so the
   * row and `unwritten` — charges this process settled and has not written — never count a charge twice
   * or miss it. Charges of other processes reach the row within their flush interval.
   */
  async readSettled<T>(partnerId: string, read: () => Promise<T>): Promise<{ value: T; unwritten: number }> {
    await Promise.all([...(this.inFlight.get(partnerId) ?? [])]);
    for (;;) {
      const state = this.partners.get(partnerId);
      const flushing = [...(state?.leases ?? [])].flatMap((lease) => (lease.flushing ? [lease.flushing] : []));
      if (flushing.length) {
        await Promise.all(flushing);
        continue;
      }
      const version = state?.version;
      const value = await read();
      const after = this.partners.get(partnerId);
      if (after?.version !== version || [...(after?.leases ?? [])].some((lease) => lease.flushing)) continue;
      let unwritten = 0;
      for (const lease of after?.leases ?? []) unwritten += lease.unflushed;
      return { value, unwritten };
    }
  }

  release(reservation: Reservation, requestId: string): Promise<number> {
    return this.settle(reservation, [], requestId);
  }

  /** Releases holds and leases whose process crashed (they expired); returns how many. */
  async sweepExpired(now = new Date()): Promise<number> {
    const expired = await this.db.query<{ id: string; partner_id: string; credits: number }>(
      'select id, partner_id, credits from credit_reservation where expires_at < ? limit 500',
      [now.toISOString()],
    );
    let swept = 0;
    for (const row of expired) {
      swept += await this.db.transaction(async (tx) => {
        if ((await tx.run('delete from credit_reservation where id = ?', [row.id])) !== 1) return 0;
        await tx.run('update partner set credit_reserved = credit_reserved - ? where id = ?', [
          Number(row.credits),
          row.partner_id,
        ]);
        return 1;
      });
    }
    return swept + (await sweepExpiredLeases(this.db, now));
  }

  /**
   * The partner's available credits: the partner row's (balance − reserved) plus what this process's
   * leases hold for nobody. While this process leases the partner's credits the row's figure may be
   * up to `availableCacheMs` old (it changes only by other processes then); it is informational.
   * `justRead` is the row's figure as the caller read it a moment ago in the same request: used instead of
   * reading it again when no lease is held.
   */
  async available(partnerId: string, justRead?: number): Promise<number> {
    const state = this.partners.get(partnerId);
    const leases = [...(state?.leases ?? [])].filter((lease) => !lease.gone);
    if (!state || !leases.length) return justRead ?? this.readAvailable(partnerId);
    const now = Date.now();
    let row = state.cached;
    if (!row || row.version !== state.version || now - row.at > this.leasing.availableCacheMs) {
      const version = state.version;
      const read = await this.readAvailable(partnerId);
      row = { available: read, at: now, version };
      if (state.version === version) state.cached = row;
    }
    return row.available + leases.reduce((sum, lease) => sum + available(lease) + lease.returning, 0);
  }

  /** Stops leasing, writes every charge and hands back every lease (a lease still holding credits for a
   * request in flight hands back the rest and expires). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.whenSettled();
    for (let attempt = 0; attempt < 5; attempt++) {
      for (const state of this.partners.values()) {
        for (const lease of state.leases) this.retire(state, lease);
      }
      const live = [...this.partners.values()].flatMap((state) => [...state.leases]);
      await Promise.all(live.map((lease) => this.drain(lease)));
      await Promise.all([this.placeUnplaced(), this.returnOrphans()]);
      const left = live.filter((lease) => !lease.gone && lease.held === 0);
      if (!left.length && !this.unplaced.length && !this.orphans.size) return;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }

  private async readAvailable(partnerId: string): Promise<number> {
    const rows = await this.db.query<{ available: number | string }>(
      'select credit_balance - credit_reserved as available from partner where id = ?',
      [partnerId],
    );
    return Number(rows[0]?.available ?? 0);
  }

  /**
   * A settlement whose hold is gone (settled earlier, or swept because the request outlived the TTL):
   * true when it is charged now or was by an earlier attempt whose reply was lost.
   */
  private async chargeUnheld(tx: Tx, s: Settlement, checked = false): Promise<boolean> {
    // Settled by an earlier attempt whose reply was lost: charging again would charge twice.
    if (!checked && (await chargedEarlier(tx, s.reservationId))) return true;
    // Charge only if the balance still covers it, so an answer is never paid for with credits held by
    // another request.
    const charged = await tx.run(
      `update partner set credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
        where id = ? and credit_balance - credit_reserved >= ?`,
      [s.total, s.total, s.partnerId, s.total],
    );
    if (charged !== 1) return false;
    await insertCharges(tx, s);
    return true;
  }

  // --- leases -------------------------------------------------------------------------------------

  private state(partnerId: string): PartnerLeases {
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

  /** A hold from this process's lease of the partner, taking a lease if the partner is busy enough. */
  private async reserveFromLease(partnerId: string, credits: number): Promise<Reservation | undefined> {
    const state = this.state(partnerId);
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
    for (let round = 0; round < 4; round++) {
      const lease = state.current;
      if (lease && !lease.retired && !lease.gone && available(lease) >= credits) {
        const id = newId();
        lease.held += credits;
        lease.lastUsed = Date.now();
        this.holds.set(id, { lease, credits, at: lease.lastUsed });
        return { id, partnerId, credits };
      }
      if (state.acquiring) {
        await state.acquiring;
        continue;
      }
      const busy = Math.max(state.calls, state.lastCalls) >= this.leasing.hotCalls;
      if (this.closed || !busy || Date.now() < state.noLeaseUntil) return undefined;
      state.acquiring = this.acquire(state, partnerId, credits).finally(() => {
        state.acquiring = undefined;
      });
      if (!(await state.acquiring)) return undefined;
    }
    return undefined;
  }

  private async acquire(state: PartnerLeases, partnerId: string, credits: number): Promise<boolean> {
    const { minCredits, maxCredits, share, idleMs } = this.leasing;
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
      size = await takeLease(this.db, {
        id,
        partnerId,
        wanted,
        least,
        share,
        expiresAt: new Date(expiresAt).toISOString(),
        createdAt: new Date(now).toISOString(),
      });
    } catch (err) {
      // It may have been taken all the same: hand it back if it exists.
      this.orphans.add(id);
      this.leasing.onError?.(err);
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
    const lease: Lease = {
      id,
      partnerId,
      credits: size,
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
    };
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
    if (!lease.gone) void this.flush(lease);
  }

  /** Hands back the unheld credits of this process's leases of the partner; true if there were any. */
  private async handBack(partnerId: string): Promise<boolean> {
    const state = this.partners.get(partnerId);
    const spare = [...(state?.leases ?? [])].filter((lease) => !lease.gone && available(lease) > 0);
    if (!state || !spare.length) return false;
    state.noLeaseUntil = Date.now() + this.leasing.idleMs;
    for (const lease of spare) this.retire(state, lease);
    await Promise.all(spare.map((lease) => this.drain(lease)));
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
    } else this.holds.delete(s.reservationId);
    const last = lease.retired && lease.held === 0;
    if (!lease.flushing && (last || lease.pending.length >= this.leasing.flushAfterCharges)) void this.flush(lease);
  }

  /** A leased hold settled together with `within`: its own transaction, charged against the lease. */
  private async settleLeasedWithin(hold: LeasedHold, s: Settlement, within: (tx: Tx) => Promise<void>) {
    // Charged by an earlier attempt whose reply was lost? Read before the transaction: attempts of one
    // settlement follow each other, and SQLite's transaction must write before it reads (see takeLease).
    const earlier = s.total > 0 && (await chargedEarlier(this.db, s.reservationId));
    const total = await this.db.transaction(async (tx) => {
      if (
        s.total > 0 &&
        !earlier &&
        !(await chargeFromLease(tx, hold.lease.id, s)) &&
        !(await this.chargeUnheld(tx, s, true))
      )
        return 0;
      await within(tx);
      return s.total;
    });
    // Written (by this attempt or one whose reply was lost): the lease row has `total` less, or, if the
    // lease was swept, this process counts a lease smaller than the row, which is harmless.
    const { lease } = hold;
    this.holds.delete(s.reservationId);
    lease.held -= hold.credits;
    lease.credits -= total;
    lease.lastUsed = Date.now();
    this.state(lease.partnerId).version += 1;
    if (lease.retired && lease.held === 0 && !lease.flushing) void this.flush(lease);
    return total;
  }

  private dropHold(id: string, hold: LeasedHold): void {
    this.holds.delete(id);
    hold.lease.held -= hold.credits;
  }

  /** Runs one flush of the lease after any in progress. Never rejects. */
  private flush(lease: Lease): Promise<void> {
    const run = (lease.flushing ?? Promise.resolve())
      .then(() => this.flushOnce(lease))
      .catch((err) => this.leasing.onError?.(err));
    lease.flushing = run;
    void run.finally(() => {
      if (lease.flushing === run) lease.flushing = undefined;
    });
    return run;
  }

  /** Flushes until nothing of the lease is waiting (three tries at most: the database may be down). */
  private async drain(lease: Lease): Promise<void> {
    for (let i = 0; i < 3 && !lease.gone; i++) {
      const due = lease.pending.length || lease.batch || (lease.retired && (lease.held === 0 || available(lease) > 0));
      if (!due && !lease.flushing) return;
      await this.flush(lease);
    }
  }

  private async flushOnce(lease: Lease): Promise<void> {
    if (lease.gone) return;
    const now = Date.now();
    let batch = lease.batch;
    if (!batch) {
      const retire = lease.retired && lease.held === 0;
      const returned = lease.retired && !retire ? available(lease) : 0;
      const renew = lease.expiresAt - now < this.reservationTtlMs / 2;
      if (!retire && !returned && !renew && !lease.pending.length) return;
      const charges = lease.pending.splice(0);
      batch = {
        seq: lease.seq,
        charges,
        spent: charges.reduce((sum, c) => sum + c.credits, 0),
        returned,
        retire,
        expiresAt: now + this.reservationTtlMs,
      };
      lease.batch = batch;
      lease.returning += returned;
    }
    const state = this.state(lease.partnerId);
    state.version += 1;
    const f = { ...batch, leaseId: lease.id, expiresAt: new Date(batch.expiresAt).toISOString() };
    let outcome: { applied: boolean; gone: boolean };
    try {
      outcome = (await flushLease(this.db, f))
        ? { applied: true, gone: batch.retire }
        : await this.flushedEarlier(lease, batch);
    } finally {
      state.version += 1;
    }
    lease.batch = undefined;
    lease.returning -= batch.returned;
    lease.unflushed -= batch.spent;
    if (outcome.applied) {
      lease.seq = batch.seq + 1;
      lease.credits -= batch.spent + batch.returned;
      lease.expiresAt = batch.expiresAt;
    } else {
      // Swept before this batch was written: each charge is made per request, if the balance covers it.
      this.unplaced.push(...settlements(batch.charges, lease.partnerId));
    }
    for (const c of batch.charges) this.holds.delete(c.reservationId);
    if (outcome.gone) {
      lease.gone = true;
      const late = lease.pending.splice(0);
      for (const c of late) this.holds.delete(c.reservationId);
      this.unplaced.push(...settlements(late, lease.partnerId));
      lease.unflushed = 0;
      state.leases.delete(lease);
      if (state.current === lease) state.current = undefined;
      if (this.unplaced.length) void this.placeUnplaced(lease.partnerId).catch((err) => this.leasing.onError?.(err));
    }
  }

  /** A batch the database did not take: applied by an earlier attempt whose reply was lost, or lease gone. */
  private async flushedEarlier(lease: Lease, batch: Batch): Promise<{ applied: boolean; gone: boolean }> {
    const [row] = await this.db.query<{ flushed_seq: number | string }>(
      'select flushed_seq from credit_lease where id = ?',
      [lease.id],
    );
    if (row) {
      if (Number(row.flushed_seq) > batch.seq) return { applied: true, gone: false };
      throw new Error(`lease ${lease.id} refused batch ${batch.seq} at the same count`);
    }
    const first = batch.charges[0];
    if (!first) return { applied: batch.retire, gone: true };
    return { applied: await chargedEarlier(this.db, first.reservationId), gone: true };
  }

  /** Charges of a swept lease, each in its own transaction, if the balance still covers it. */
  private async placeUnplaced(partnerId?: string): Promise<void> {
    for (const s of [...this.unplaced]) {
      if (partnerId && s.partnerId !== partnerId) continue;
      try {
        // Checked before the transaction, which then writes first (SQLite, see takeLease).
        if (!(await chargedEarlier(this.db, s.reservationId)))
          await this.db.transaction((tx) => this.chargeUnheld(tx, s, true));
        this.unplaced.splice(this.unplaced.indexOf(s), 1);
      } catch (err) {
        this.leasing.onError?.(err);
        return;
      }
    }
  }

  private async returnOrphans(): Promise<void> {
    for (const id of [...this.orphans]) {
      try {
        const gone = {
          leaseId: id,
          seq: 0,
          charges: [],
          spent: 0,
          returned: 0,
          retire: true,
          expiresAt: new Date().toISOString(),
        };
        await flushLease(this.db, gone);
        this.orphans.delete(id);
      } catch (err) {
        this.leasing.onError?.(err);
      }
    }
  }

  /** Every `flushMs`: write charges, renew leases in use, hand back idle ones, expire forgotten holds. */
  private async tick(): Promise<void> {
    const now = Date.now();
    for (const [id, hold] of this.holds) {
      // A request that never settled (its caller lost it): released, as the sweeper does in the database.
      if (hold.settled === undefined && now - hold.at > this.reservationTtlMs) this.dropHold(id, hold);
    }
    for (const [partnerId, state] of this.partners) {
      for (const lease of state.leases) {
        if (!lease.retired && lease.held === 0 && now - lease.lastUsed >= this.leasing.idleMs)
          this.retire(state, lease);
        else if (!lease.flushing) void this.flush(lease);
      }
      if (!state.leases.size && !state.acquiring && now - state.windowStart > 2000) this.partners.delete(partnerId);
    }
    if (this.unplaced.length) await this.placeUnplaced();
    if (this.orphans.size) await this.returnOrphans();
  }
}

/** Whether a charge of this reservation is in the ledger. */
async function chargedEarlier(db: Tx, reservationId: string): Promise<boolean> {
  const rows = await db.query('select 1 as settled from ledger_entry where reservation_id = ? limit 1', [
    reservationId,
  ]);
  return rows.length > 0;
}

/** Charges grouped back into one settlement per reservation. */
function settlements(charges: readonly LeaseCharge[], partnerId: string): Settlement[] {
  const by = new Map<string, Settlement>();
  for (const c of charges) {
    const s = by.get(c.reservationId) ?? {
      reservationId: c.reservationId,
      partnerId,
      reserved: 0,
      total: 0,
      charges: [],
      requestId: c.requestId,
      at: c.at,
    };
    by.set(c.reservationId, {
      ...s,
      reserved: s.reserved + c.credits,
      total: s.total + c.credits,
      charges: [...s.charges, { operation: c.operation, credits: c.credits }],
    });
  }
  return [...by.values()];
}

const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();
