import {
  insertCharges,
  reserveCredits,
  type Settlement,
  settleHeld,
  settleHeldWithin,
} from '../db/ledger-statements.js';
import type { Database } from '../db/orm.js';
import type { Charge, CreditPath, Reservation, ReserveResult, Tx, Within } from './credit-path.js';
import { newId } from './credit-path.js';

/**
 * Per-request credits: each hold is a `credit_reservation` row taken atomically only if the balance minus
 * what is already reserved covers it, and each settlement charges and releases it in one atomic step, so
 * any number of processes sharing the database can never overspend. Holds of a process that died are
 * released by `sweepExpiredReservations` once they expire.
 */
export class PerRequestCredits implements CreditPath {
  constructor(
    private readonly db: Database,
    private readonly reservationTtlMs: number,
  ) {}

  async reserve(partnerId: string, credits: number, operation: string, requestId: string): Promise<ReserveResult> {
    const reservation = await this.hold(partnerId, credits, operation, requestId);
    if (reservation) return { ok: true, reservation };
    return { ok: false, available: await this.readAvailable(partnerId) };
  }

  /** Takes the hold, or changes nothing when the available balance does not cover it. */
  async hold(
    partnerId: string,
    credits: number,
    operation: string,
    requestId: string,
    id = newId(),
  ): Promise<Reservation | undefined> {
    const hold = { id, partnerId, credits, operation: operation.slice(0, 255), requestId };
    const taken = await reserveCredits(this.db, { ...hold, expiresAt: isoIn(this.reservationTtlMs) });
    return taken ? { id, partnerId, credits } : undefined;
  }

  settle(reservation: Reservation, charges: Charge[], requestId: string, within?: Within): Promise<number> {
    return this.settleHold(settlementOf(reservation, charges, requestId), within);
  }

  /** Charges the settlement against its hold, or without one when the hold is gone (see `chargeUnheld`). */
  async settleHold(s: Settlement, within?: Within): Promise<number> {
    // The common case (the hold is still there, nothing to record beside it) is one step of its own.
    if (!within && (await settleHeld(this.db, s))) return s.total;
    return this.db.transaction(async (tx) => {
      if (!(await settleHeldWithin(tx, s)) && s.total > 0 && !(await this.chargeUnheld(tx, s))) return 0;
      if (within) await within(tx);
      return s.total;
    });
  }

  /**
   * A settlement whose hold is gone (settled earlier, or swept because the request outlived the TTL):
   * true when it is charged now or was by an earlier attempt whose reply was lost. `checked`: the caller
   * already found no earlier charge.
   */
  async chargeUnheld(tx: Tx, s: Settlement, checked = false): Promise<boolean> {
    // Charging a settlement whose earlier attempt committed would charge it twice.
    if (!checked && (await chargedEarlier(tx, s.reservationId))) return true;
    // Only if the balance still covers it: an answer is never paid for with credits held by another request.
    const charged = await tx.run(
      `update partner set credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
        where id = ? and credit_balance - credit_reserved >= ?`,
      [s.total, s.total, s.partnerId, s.total],
    );
    if (charged !== 1) return false;
    await insertCharges(tx, s);
    return true;
  }

  async available(partnerId: string, justRead?: number): Promise<number> {
    return justRead ?? this.readAvailable(partnerId);
  }

  /** The partner row's balance − reserved. */
  async readAvailable(partnerId: string): Promise<number> {
    const rows = await this.db.query<{ available: number | string }>(
      'select credit_balance - credit_reserved as available from partner where id = ?',
      [partnerId],
    );
    return Number(rows[0]?.available ?? 0);
  }

  /** Every charge is written by the time `settle` resolves. */
  async flushed(): Promise<void> {}

  async readSettled<T>(_partnerId: string, read: () => Promise<T>): Promise<{ value: T; unwritten: number }> {
    return { value: await read(), unwritten: 0 };
  }

  async close(settling: Promise<unknown>): Promise<void> {
    await settling;
  }
}

/** The settlement of a reservation; throws when the charges exceed what it holds. */
export function settlementOf(reservation: Reservation, charges: Charge[], requestId: string): Settlement {
  const total = charges.reduce((sum, c) => sum + c.credits, 0);
  if (total > reservation.credits) throw new Error(`charge ${total} exceeds reservation ${reservation.credits}`);
  return {
    reservationId: reservation.id,
    partnerId: reservation.partnerId,
    reserved: reservation.credits,
    total,
    charges: charges.map((c) => ({ operation: c.operation.slice(0, 255), credits: c.credits })),
    requestId,
    at: new Date().toISOString(),
  };
}

/** Whether a charge of this reservation is in the ledger. */
export async function chargedEarlier(db: Tx, reservationId: string): Promise<boolean> {
  const rows = await db.query('select 1 as settled from ledger_entry where reservation_id = ? limit 1', [
    reservationId,
  ]);
  return rows.length > 0;
}

/** Releases holds whose process died (they expired), up to 500 at a time; returns how many. */
export async function sweepExpiredReservations(db: Database, now: Date): Promise<number> {
  const expired = await db.query<{ id: string; partner_id: string; credits: number }>(
    'select id, partner_id, credits from credit_reservation where expires_at < ? limit 500',
    [now.toISOString()],
  );
  let swept = 0;
  for (const row of expired) {
    swept += await db.transaction(async (tx) => {
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

const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();
