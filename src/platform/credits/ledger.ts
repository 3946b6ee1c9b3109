import { randomUUID } from 'node:crypto';
import {
  insertCharges,
  reserveCredits,
  type Settlement,
  settleHeld,
  settleHeldWithin,
} from '../db/ledger-statements.js';
import type { Database } from '../db/orm.js';

/**
 * The credit ledger. A paid request goes through three steps, each one atomic in the database so that
 * any number of processes sharing it can never overspend a balance:
 *
 *  1. `reserve`: before the operation runs, move its price from available to reserved, only if the
 *     balance minus what is already reserved covers it. A reservation row remembers the hold.
 *  2. `settle`: after the answer, charge what succeeded (balance → usage, one ledger row per charge) and
 *     release the rest. `creditBalance + creditUsage` stays equal to the credits granted throughout.
 *  3. `sweepExpired`: holds of a process that died mid-request are released after a timeout.
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

export class CreditLedger {
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();

  constructor(
    private readonly db: Database,
    private readonly reservationTtlMs: number,
  ) {}

  async reserve(partnerId: string, credits: number, operation: string, requestId: string): Promise<ReserveResult> {
    const id = randomUUID();
    const hold = { id, partnerId, credits, operation: operation.slice(0, 255), requestId };
    if (await reserveCredits(this.db, { ...hold, expiresAt: isoIn(this.reservationTtlMs) }))
      return { ok: true, reservation: { id, partnerId, credits } };
    return { ok: false, available: await this.available(partnerId) };
  }

  /**
   * Charges `charges` (at most the reserved amount) and releases the remainder of the hold. Safe to call
   * again for the same reservation (a retry after a lost reply): charges carry the reservation id, so a
   * second settlement finds them and charges nothing more. `within` runs in the same transaction, so
   * whatever it records (an idempotent answer) exists exactly when the charge does.
   */
  async settle(
    reservation: Reservation,
    charges: Charge[],
    requestId: string,
    within?: (tx: Tx) => Promise<void>,
  ): Promise<number> {
    const total = charges.reduce((sum, c) => sum + c.credits, 0);
    if (total > reservation.credits) throw new Error(`charge ${total} exceeds reservation ${reservation.credits}`);
    const settlement: Settlement = {
      reservationId: reservation.id,
      partnerId: reservation.partnerId,
      reserved: reservation.credits,
      total,
      charges: charges.map((c) => ({ operation: c.operation.slice(0, 255), credits: c.credits })),
      requestId,
      at: new Date().toISOString(),
    };
    // The common case (the hold is still there, nothing to record beside it) is one step of its own.
    if (!within && (await settleHeld(this.db, settlement))) return total;
    return this.db.transaction(async (tx) => {
      if (!(await settleHeldWithin(tx, settlement)) && total > 0) {
        const earlier = await tx.query('select 1 as settled from ledger_entry where reservation_id = ? limit 1', [
          reservation.id,
        ]);
        // Settled by an earlier attempt whose reply was lost: charging again would charge twice.
        if (earlier.length) return total;
        // The sweeper already released this hold (the request outlived the TTL): charge only if the
        // balance still covers it, so an answer is never paid for with credits held by another request.
        const charged = await tx.run(
          `update partner set credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
            where id = ? and credit_balance - credit_reserved >= ?`,
          [total, total, reservation.partnerId, total],
        );
        if (charged !== 1) return 0;
        await insertCharges(tx, settlement);
      }
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

  /** Resolves once every settlement of this partner started by this process so far has finished. */
  async whenSettled(partnerId?: string): Promise<void> {
    const sets = partnerId ? [this.inFlight.get(partnerId)] : [...this.inFlight.values()];
    await Promise.all(sets.flatMap((set) => [...(set ?? [])]));
  }

  release(reservation: Reservation, requestId: string): Promise<number> {
    return this.settle(reservation, [], requestId);
  }

  /** Releases holds whose request never settled (its process crashed); returns how many. */
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
    return swept;
  }

  async available(partnerId: string): Promise<number> {
    const rows = await this.db.query<{ available: number | string }>(
      'select credit_balance - credit_reserved as available from partner where id = ?',
      [partnerId],
    );
    return Number(rows[0]?.available ?? 0);
  }
}

const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();
