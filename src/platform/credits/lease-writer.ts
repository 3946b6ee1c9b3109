import { flushLease, type LeaseCharge, type Settlement } from '../db/ledger-statements.js';
import type { Database } from '../db/orm.js';
import { type Batch, type Lease, type LeaseBook, unclaimed } from './lease.js';
import { chargedEarlier, type PerRequestCredits } from './per-request.js';

/**
 * Writes leases' charges, each exactly once: one transaction per batch moves its charges from balance to
 * usage and out of the lease, so every committed state keeps the invariants. A batch names the batch count
 * it expects, so a retry after a lost reply cannot apply twice. Charges of a lease swept before they were
 * written are charged per request if the balance still covers them: an under-charge, never an overspend.
 */
export class LeaseWriter {
  /** Leases whose taking failed without an answer: they may exist, so they are handed back. */
  private readonly orphans = new Set<string>();
  /** Charges of a lease that was swept before they were written. */
  private readonly unplaced: Settlement[] = [];

  constructor(
    private readonly db: Database,
    private readonly reservationTtlMs: number,
    private readonly book: LeaseBook,
    private readonly perRequest: PerRequestCredits,
    private readonly onError: ((err: unknown) => void) | undefined,
  ) {}

  /** Whether charges or leases still wait to be written or handed back outside any lease's flush. */
  get waiting(): boolean {
    return this.unplaced.length > 0 || this.orphans.size > 0;
  }

  /** A lease whose taking failed without an answer: handed back if it exists. */
  orphan(id: string): void {
    this.orphans.add(id);
  }

  /** Runs one flush of the lease after any in progress. Never rejects. */
  flush(lease: Lease): Promise<void> {
    const run = (lease.flushing ?? Promise.resolve())
      .then(() => this.flushOnce(lease))
      .catch((err) => this.onError?.(err));
    lease.flushing = run;
    void run.finally(() => {
      if (lease.flushing === run) lease.flushing = undefined;
    });
    return run;
  }

  /** Flushes until nothing of the lease is waiting (three tries at most: the database may be down). */
  async drain(lease: Lease): Promise<void> {
    for (let i = 0; i < 3 && !lease.gone; i++) {
      const due = lease.pending.length || lease.batch || (lease.retired && (lease.held === 0 || unclaimed(lease) > 0));
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
      const returned = lease.retired && !retire ? unclaimed(lease) : 0;
      // Renewed while in use; a dead process's lease expires and is swept.
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
    const state = this.book.state(lease.partnerId);
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
      this.unplaced.push(...settlements(batch.charges, lease.partnerId));
    }
    for (const c of batch.charges) this.book.holds.delete(c.reservationId);
    if (outcome.gone) {
      lease.gone = true;
      const late = lease.pending.splice(0);
      for (const c of late) this.book.holds.delete(c.reservationId);
      this.unplaced.push(...settlements(late, lease.partnerId));
      lease.unflushed = 0;
      state.leases.delete(lease);
      if (state.current === lease) state.current = undefined;
      if (this.unplaced.length) void this.placeUnplaced(lease.partnerId).catch((err) => this.onError?.(err));
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
  async placeUnplaced(partnerId?: string): Promise<void> {
    for (const s of [...this.unplaced]) {
      if (partnerId && s.partnerId !== partnerId) continue;
      try {
        // Checked before the transaction, which then writes first (SQLite, see takeLease).
        if (!(await chargedEarlier(this.db, s.reservationId)))
          await this.db.transaction((tx) => this.perRequest.chargeUnheld(tx, s, true));
        this.unplaced.splice(this.unplaced.indexOf(s), 1);
      } catch (err) {
        this.onError?.(err);
        return;
      }
    }
  }

  async returnOrphans(): Promise<void> {
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
        this.onError?.(err);
      }
    }
  }

  /** Everything waiting outside the leases' own flushes: swept leases' charges, then orphans. */
  async writeWaiting(): Promise<void> {
    if (this.unplaced.length) await this.placeUnplaced();
    if (this.orphans.size) await this.returnOrphans();
  }
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
