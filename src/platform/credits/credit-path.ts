import * as crypto from 'node:crypto';
import type { Database } from '../db/orm.js';

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

export type Tx = Pick<Database, 'query' | 'run'>;

/** Runs inside the charging transaction, so what it records exists exactly when the charge does. */
export type Within = (tx: Tx) => Promise<void>;

/**
 * The hot credit path: a hold before each paid operation, settled once its answer is delivered, never
 * overspending a balance nor charging a reservation twice. `PerRequestCredits` writes each hold and charge
 * as it happens; `LeasedCredits` serves busy partners from blocks leased in advance and writes in batches.
 */
export interface CreditPath {
  /** Holds `credits` of the partner, or refuses with what is available; `lease: false` asks for a hold of its own. */
  reserve(
    partnerId: string,
    credits: number,
    operation: string,
    requestId: string,
    options?: { lease?: boolean },
  ): Promise<ReserveResult>;

  /**
   * Charges `charges` (at most the reserved amount) and releases the rest of the hold; returns what was
   * charged. Safe to repeat for the same reservation: a repeat charges nothing more.
   */
  settle(reservation: Reservation, charges: Charge[], requestId: string, within?: Within): Promise<number>;

  /** The partner's credits neither charged nor held, as far as this process can tell. */
  available(partnerId: string, justRead?: number): Promise<number>;

  /** Resolves once the charges this process settled of the partner (of every partner) are written. */
  flushed(partnerId?: string): Promise<void>;

  /** `read`'s value while nothing of the partner is being written, and the charges not yet written. */
  readSettled<T>(partnerId: string, read: () => Promise<T>): Promise<{ value: T; unwritten: number }>;

  /** Takes no more credits in advance, waits for `settling`, writes every charge and hands back the rest. */
  close(settling: Promise<unknown>): Promise<void>;
}

/**
 * Reservation and lease ids: time-ordered (v7) so that each new key of the ledger's `reservation_id`
 * index lands at its end instead of dirtying a page of its own. Node without `randomUUIDv7` gets v4 ids,
 * just as valid.
 */
export const newId: () => string = crypto.randomUUIDv7 ?? crypto.randomUUID;
