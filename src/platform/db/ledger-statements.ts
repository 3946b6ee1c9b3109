import type { Database } from './orm.js';

/**
 * The credit ledger's steps whose best form differs by database (src/platform/credits/per-request.ts and
 * lease-*.ts hold the rules and call one function per step). On PostgreSQL each step is one statement:
 * one round trip, and the partner row is locked only for that statement instead of across a BEGIN …
 * COMMIT exchange, which is what queues parallel calls of one partner behind each other. SQLite has a
 * single writer anyway, so a short transaction of plain statements does the same.
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
  await chargeHeld(tx, s.partnerId, s.reserved, s.total);
  await insertCharges(tx, s);
  return true;
}

/** Releases `released` held credits of the partner and charges `total` of them (balance → usage). */
async function chargeHeld(tx: Tx, partnerId: string, released: number, total: number): Promise<void> {
  await tx.run(
    `update partner set credit_reserved = credit_reserved - ?,
            credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
      where id = ?`,
    [released, total, total, partnerId],
  );
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

/** A block of credits to lease: `wanted`, cut down to a `share`-th of what the partner has available. */
export interface LeaseRequest {
  id: string;
  partnerId: string;
  wanted: number;
  /** The smallest block worth taking; below it nothing is leased. */
  least: number;
  /** Take at most (balance − reserved) / share, so other processes find credits too. */
  share: number;
  expiresAt: string;
  createdAt: string;
}

/**
 * Reserves a block of credits on the partner row and records it as a lease, atomically. Returns the
 * credits leased, or 0 (nothing changed) when a `share`-th of the available balance is below `least`.
 */
export async function takeLease(db: Database, lease: LeaseRequest): Promise<number> {
  const { id, partnerId, wanted, least, share, expiresAt, createdAt } = lease;
  if (db.dialect === 'postgresql') {
    // The partner row is locked by the first CTE, so the block is sized on the row it then updates.
    const rows = await db.query<{ credits: number | string }>(
      `with cur as (
         select id, least(?::bigint, (credit_balance - credit_reserved) / ?::bigint) as size
           from partner where id = ?::uuid for update
       ), held as (
         update partner p set credit_reserved = p.credit_reserved + cur.size
           from cur where p.id = cur.id and cur.size >= ?::bigint and p.credit_balance - p.credit_reserved >= cur.size
         returning p.id, cur.size
       )
       insert into credit_lease (id, partner_id, credits, flushed_seq, expires_at, created_at)
       select ?::uuid, held.id, held.size, 0, ?::timestamptz, ?::timestamptz from held
       returning credits`,
      [wanted, share, partnerId, least, id, expiresAt, createdAt],
    );
    return Number(rows[0]?.credits ?? 0);
  }
  // SQLite: a write first, so the transaction takes the file's write lock (waiting its turn) before it
  // reads; a transaction that read first could not write once another had written meanwhile.
  return db.transaction(async (tx) => {
    const [taken] = await tx.query<{ credits: number | string }>(
      `insert into credit_lease (id, partner_id, credits, flushed_seq, expires_at, created_at)
       select ?, id, min(?, (credit_balance - credit_reserved) / ?), 0, ?, ? from partner
        where id = ? and (credit_balance - credit_reserved) / ? >= ?
       returning credits`,
      [id, wanted, share, expiresAt, createdAt, partnerId, share, least],
    );
    if (!taken) return 0;
    const size = Number(taken.credits);
    const held = await tx.run(
      `update partner set credit_reserved = credit_reserved + ?
        where id = ? and credit_balance - credit_reserved >= ?`,
      [size, partnerId, size],
    );
    // Read under the same write lock: cannot differ. Rolled back rather than leave a lease unreserved.
    if (held !== 1) throw new Error(`partner ${partnerId} changed while leasing its credits`);
    return size;
  });
}

/** One charge spent from a lease, written by the next flush. */
export interface LeaseCharge {
  reservationId: string;
  operation: string;
  credits: number;
  requestId: string;
  /** ISO timestamp of the ledger row: when the charge was settled, not when it was written. */
  at: string;
}

/** A batch of a lease's charges, and what the lease gives back with it. */
export interface LeaseFlush {
  leaseId: string;
  /** The lease's `flushed_seq` this batch expects: it applies only on top of exactly that batch count. */
  seq: number;
  charges: readonly LeaseCharge[];
  /** The charges' sum. */
  spent: number;
  /** Unspent credits handed back to the partner's available balance (ignored with `retire`). */
  returned: number;
  /** Delete the lease, handing back whatever it still holds after the charges. */
  retire: boolean;
  /** The lease's new expiry (it stays alive while its process flushes). */
  expiresAt: string;
}

/**
 * Writes a batch of a lease's charges in one transaction: the ledger rows (one multi-row insert), the
 * partner's balance → usage, and the lease's own credits, its batch count and expiry — or, retiring, the
 * lease deleted and its remainder released. Returns false, having changed nothing, when the lease is
 * gone or has already counted this batch (`flushed_seq` ≠ `seq`): the ledger tells which.
 */
export async function flushLease(db: Database, f: LeaseFlush): Promise<boolean> {
  const charges = JSON.stringify(
    f.charges.map((c) => ({
      operation: c.operation,
      credits: c.credits,
      request_id: c.requestId,
      reservation_id: c.reservationId,
      created_at: c.at,
    })),
  );
  if (db.dialect === 'postgresql') {
    const lease = f.retire
      ? `delete from credit_lease where id = ?::uuid and flushed_seq = ?::bigint returning partner_id, credits as freed`
      : `update credit_lease set credits = credits - ?::bigint, flushed_seq = flushed_seq + 1, expires_at = ?::timestamptz
          where id = ?::uuid and flushed_seq = ?::bigint returning partner_id, ?::bigint as freed`;
    const freed = f.spent + f.returned;
    const leaseParams = f.retire ? [f.leaseId, f.seq] : [freed, f.expiresAt, f.leaseId, f.seq, freed];
    const rows = await db.query<{ settled: number | string }>(
      `with lease as (${lease}), settled as (
         update partner p set credit_reserved = p.credit_reserved - l.freed,
                credit_balance = p.credit_balance - ?::bigint, credit_usage = p.credit_usage + ?::bigint
           from lease l where p.id = l.partner_id
         returning p.id
       ), charged as (
         insert into ledger_entry (partner_id, kind, operation, credits, request_id, reservation_id, created_at)
         select s.id, 'charge', c.operation, c.credits, c.request_id, c.reservation_id, c.created_at
           from settled s cross join jsonb_to_recordset(?::jsonb)
             as c(operation text, credits int, request_id text, reservation_id uuid, created_at timestamptz)
         returning 1
       )
       select (select count(*) from settled) as settled, (select count(*) from charged) as charged`,
      [...leaseParams, f.spent, f.spent, charges],
    );
    return Number(rows[0]?.settled) === 1;
  }
  return db.transaction(async (tx) => {
    let freed: number;
    let partnerId: string;
    if (f.retire) {
      const [gone] = await tx.query<{ partner_id: string; credits: number | string }>(
        'delete from credit_lease where id = ? and flushed_seq = ? returning partner_id, credits',
        [f.leaseId, f.seq],
      );
      if (!gone) return false;
      freed = Number(gone.credits);
      partnerId = gone.partner_id;
    } else {
      const [kept] = await tx.query<{ partner_id: string }>(
        `update credit_lease set credits = credits - ?, flushed_seq = flushed_seq + 1, expires_at = ?
          where id = ? and flushed_seq = ? returning partner_id`,
        [f.spent + f.returned, f.expiresAt, f.leaseId, f.seq],
      );
      if (!kept) return false;
      freed = f.spent + f.returned;
      partnerId = kept.partner_id;
    }
    await tx.run(
      `update partner set credit_reserved = credit_reserved - ?,
              credit_balance = credit_balance - ?, credit_usage = credit_usage + ?
        where id = ?`,
      [freed, f.spent, f.spent, partnerId],
    );
    if (f.charges.length) {
      await tx.run(
        `insert into ledger_entry (partner_id, kind, operation, credits, request_id, reservation_id, created_at)
         select ?, 'charge', json_extract(value, '$.operation'), json_extract(value, '$.credits'),
                json_extract(value, '$.request_id'), json_extract(value, '$.reservation_id'), json_extract(value, '$.created_at')
           from json_each(?)`,
        [partnerId, charges],
      );
    }
    return true;
  });
}

/**
 * Charges a settlement against a lease's credits inside the caller's transaction (the settlement of a
 * leased hold that records something beside its charge). False, having changed nothing, when the lease
 * is gone (swept after expiry).
 */
export async function chargeFromLease(tx: Tx, leaseId: string, s: Settlement): Promise<boolean> {
  const taken = await tx.run('update credit_lease set credits = credits - ? where id = ? and credits >= ?', [
    s.total,
    leaseId,
    s.total,
  ]);
  if (taken !== 1) return false;
  await chargeHeld(tx, s.partnerId, s.total, s.total);
  await insertCharges(tx, s);
  return true;
}

/** Releases leases past their expiry (their process died), up to 500 at a time; returns how many. */
export async function sweepExpiredLeases(db: Database, now: Date): Promise<number> {
  const at = now.toISOString();
  const expired = await db.query<{ id: string }>('select id from credit_lease where expires_at < ? limit 500', [at]);
  let swept = 0;
  for (const { id } of expired) {
    swept += await db.transaction(async (tx) => {
      // Deleted only if still expired: its process may have renewed it since the select.
      const [gone] = await tx.query<{ partner_id: string; credits: number | string }>(
        'delete from credit_lease where id = ? and expires_at < ? returning partner_id, credits',
        [id, at],
      );
      if (!gone) return 0;
      await tx.run('update partner set credit_reserved = credit_reserved - ? where id = ?', [
        Number(gone.credits),
        gone.partner_id,
      ]);
      return 1;
    });
  }
  return swept;
}
