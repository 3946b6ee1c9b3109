import type { Database } from './orm.js';

/**
 * The credit ledger's steps whose best form differs by database (src/platform/credits/ledger.ts holds
 * the rules and calls one function per step). On PostgreSQL each step is one statement: one round trip,
 * and the partner row is locked only for that statement instead of across a BEGIN … COMMIT exchange,
 * which is what queues parallel calls of one partner behind each other. SQLite has a single writer
 * anyway, so a short transaction of plain statements does the same.
 */

type Tx = Pick<Database, 'query' | 'run'>;

export interface Hold {
  id: string;
  partnerId: string;
  credits: number;
  operation: string;
  requestId: string;
  /** ISO timestamp after which the sweeper releases the hold. */
  expiresAt: string;
}

export interface Settlement {
  reservationId: string;
  partnerId: string;
  /** The credits the hold reserved. */
  reserved: number;
  /** The charges' sum, at most `reserved`. */
  total: number;
  charges: readonly { operation: string; credits: number }[];
  requestId: string;
  /** ISO timestamp of the ledger rows. */
  at: string;
}

/**
 * Moves `hold.credits` from available to reserved and records the hold, only if the balance minus what
 * is already reserved covers them. Returns whether the hold was taken.
 */
export async function reserveCredits(db: Database, hold: Hold): Promise<boolean> {
  const { id, partnerId, credits, operation, requestId, expiresAt } = hold;
  if (db.dialect === 'postgresql') {
    const inserted = await db.run(
      `with held as (
         update partner set credit_reserved = credit_reserved + ?::bigint
          where id = ?::uuid and credit_balance - credit_reserved >= ?::bigint
          returning id
       )
       insert into credit_reservation (id, partner_id, credits, operation, request_id, expires_at)
       select ?::uuid, held.id, ?::int, ?::text, ?::text, ?::timestamptz from held`,
      [credits, partnerId, credits, id, credits, operation, requestId, expiresAt],
    );
    return inserted === 1;
  }
  return db.transaction(async (tx) => {
    const held = await tx.run(
      `update partner set credit_reserved = credit_reserved + ?
        where id = ? and credit_balance - credit_reserved >= ?`,
      [credits, partnerId, credits],
    );
    if (held !== 1) return false;
    await tx.run(
      'insert into credit_reservation (id, partner_id, credits, operation, request_id, expires_at) values (?, ?, ?, ?, ?, ?)',
      [id, partnerId, credits, operation, requestId, expiresAt],
    );
    return true;
  });
}

/**
 * Releases a hold that still exists, charges the settlement against it (balance → usage) and writes one
 * ledger row per charge, atomically. Returns false, having changed nothing, when the hold is gone
 * (settled earlier or swept): the ledger decides what that means.
 */
export async function settleHeld(db: Database, s: Settlement): Promise<boolean> {
  if (db.dialect !== 'postgresql') return db.transaction((tx) => settleHeldWithin(tx, s));
  const rows = await db.query<{ settled: number | string }>(
    `with released as (
       delete from credit_reservation where id = ?::uuid returning partner_id, credits
     ), settled as (
       update partner p set credit_reserved = p.credit_reserved - r.credits,
              credit_balance = p.credit_balance - ?::bigint, credit_usage = p.credit_usage + ?::bigint
         from released r where p.id = r.partner_id
       returning p.id
     ), charged as (
       insert into ledger_entry (partner_id, kind, operation, credits, request_id, reservation_id, created_at)
       select s.id, 'charge', c.operation, c.credits, ?::text, ?::uuid, ?::timestamptz
         from settled s cross join jsonb_to_recordset(?::jsonb) as c(operation text, credits int)
        where c.credits > 0
       returning 1
     )
     select (select count(*) from settled) as settled, (select count(*) from charged) as charged`,
    [
      s.reservationId,
      s.total,
      s.total,
      s.requestId,
      s.reservationId,
      s.at,
      JSON.stringify(s.charges.map((c) => ({ operation: c.operation, credits: c.credits }))),
    ],
  );
  return Number(rows[0]?.settled) === 1;
}

/** `settleHeld` inside the caller's transaction, in statements both databases run. */
export async function settleHeldWithin(tx: Tx, s: Settlement): Promise<boolean> {
  if ((await tx.run('delete from credit_reservation where id = ?', [s.reservationId])) !== 1) return false;
  await tx.run(
    `update partner set credit_reserved = credit_reserved - ?,
            credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
      where id = ?`,
    [s.reserved, s.total, s.total, s.partnerId],
  );
  await insertCharges(tx, s);
  return true;
}

/** One ledger row per charge of the settlement (none for a zero charge). */
export async function insertCharges(tx: Tx, s: Settlement): Promise<void> {
  for (const charge of s.charges) {
    if (charge.credits <= 0) continue;
    await tx.run(
      'insert into ledger_entry (partner_id, kind, operation, credits, request_id, reservation_id, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      [s.partnerId, 'charge', charge.operation, charge.credits, s.requestId, s.reservationId, s.at],
    );
  }
}
