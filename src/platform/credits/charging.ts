import { channel } from 'node:diagnostics_channel';
import type { FastifyBaseLogger } from 'fastify';
import { insufficientCredits, unauthenticated } from '../errors.js';
import type { Maybe } from '../maybe.js';
import type { Delivery } from './delivery.js';
import type { Charge, CreditLedger, Reservation } from './ledger.js';
import type { RootField } from './root-fields.js';

/**
 * The one owner of the money rules for every way an operation is answered (REST, /graphql and its
 * WebSocket, the Hive Gateway plugin, the Router coprocessor): an operation's price is held before it
 * runs (a refusal is free), the root fields that answered are charged once the answer reached the client
 * with HTTP 200, and everything else is released. Callers hand over who pays and the answer; none of
 * them reserves or settles on the ledger itself.
 */

/** Who pays for an operation, and how to learn that its answer was delivered. */
export interface Payer {
  partner: { readonly id: string } | null;
  requestId: string;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** Over HTTP: settled on the answer's outcome (see delivery.ts). Without it, settled when closed. */
  delivery?: Delivery | null;
  /** The operation's name in messages (a REST route's label); the paid root fields when absent. */
  operationLabel?: string;
  /** The request's memo, where a resolver may leave the balance it read (`availableSeen`). */
  memo?: Map<string, unknown>;
}

/** What an answer costs, told to the caller before it is sent: headers and the GraphQL `credits` extension. */
export interface CreditsAnnouncement {
  charged: number;
  /** The partner's balance once this charge settles; absent without a partner or when unreadable. */
  remaining?: number;
}

/** The part of an execution result that decides the charge: which root fields answered without error. */
export interface ChargedResult {
  data?: Record<string, unknown> | null;
  errors?: readonly { path?: readonly (string | number)[] }[];
}

/** A hold as it travels between a router's stages (plain data: the Router carries it as JSON). */
export interface HeldCharge {
  reservation: Reservation;
  fields: readonly RootField[];
}

/** Charges as they are written, for the credits metric (subscribed to by http/metrics.ts). */
export const CHARGED_CHANNEL = 'cipgate:credits.charged';
const charged = channel(CHARGED_CHANNEL);

const AVAILABLE_SEEN = 'credits.availableSeen';

/**
 * Records the partner's available balance (balance − reserved) as a resolver of this request just read it
 * from the partner row, so the answer's `x-credits-remaining` of a free call needs no second read.
 */
export function availableSeen(ctx: { memo: Map<string, unknown> }, partnerId: string, available: number): void {
  ctx.memo.set(AVAILABLE_SEEN, { partnerId, available });
}

const plural = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** The refusal's words, the same on every path and router, so a client parses one message. */
const insufficientMessage = (label: string, required: number, available: number) =>
  `Insufficient credits: ${label} requires ${plural(required)}, but the balance available is ${plural(available)}`;

/** The paid root fields, for messages (`meteredEcho + meteredTwo`). */
const paidLabel = (fields: readonly RootField[]) =>
  fields
    .filter((f) => f.price > 0)
    .map((f) => f.fieldName)
    .join(' + ');

/** What an operation of these root fields costs at most: the sum of their prices. */
export function priceOf(fields: readonly RootField[]): number {
  let total = 0;
  for (const f of fields) total += f.price;
  return total;
}

/**
 * The charges an answer earns: each paid root field that answered without error. An answer without data,
 * or with an error outside every field (the request failed), earns nothing.
 */
export function chargesFor(fields: readonly RootField[], result: ChargedResult): Charge[] {
  const data = result.data ?? null;
  const errors = result.errors ?? [];
  if (!data || errors.some((e) => !e.path?.length)) return [];
  const failed = new Set(errors.map((e) => e.path?.[0]));
  return fields
    .filter((f) => f.price > 0 && f.responseKey in data && !failed.has(f.responseKey))
    .map((f) => ({ operation: f.fieldName, credits: f.price }));
}

/** One operation's charge: opened (held) before it runs, closed with its answer exactly once. */
export class OperationCharge {
  private constructor(
    private readonly ledger: CreditLedger,
    private readonly payer: Payer,
    private readonly fields: readonly RootField[],
    private reservation: Reservation | undefined,
  ) {}

  /**
   * Holds the operation's price. Throws UNAUTHENTICATED for paid fields without a partner and
   * INSUFFICIENT_CREDITS when the available balance does not cover it; both are free refusals. `lease:
   * false` holds a row of its own, for a hold another process or a long wait may settle.
   */
  static open(
    ledger: CreditLedger,
    payer: Payer,
    fields: readonly RootField[],
    options: { lease?: boolean } = {},
  ): Maybe<OperationCharge> {
    const total = priceOf(fields);
    // A free call holds nothing: opened at once, no promise (a public lookup is all free calls).
    if (total === 0) return new OperationCharge(ledger, payer, fields, undefined);
    return OperationCharge.hold(ledger, payer, fields, total, options);
  }

  /** A hold an earlier stage of the same request opened (a router's stages), to be settled here. */
  static resume(ledger: CreditLedger, payer: Payer, held: HeldCharge): OperationCharge {
    return new OperationCharge(ledger, payer, held.fields, held.reservation);
  }

  private static async hold(
    ledger: CreditLedger,
    payer: Payer,
    fields: readonly RootField[],
    total: number,
    options: { lease?: boolean },
  ): Promise<OperationCharge> {
    if (!payer.partner) {
      throw unauthenticated(`A valid x-api-key header is required for paid fields (${paidLabel(fields)})`);
    }
    const label = payer.operationLabel ?? paidLabel(fields);
    const result = await ledger.reserve(payer.partner.id, total, label, payer.requestId, options);
    if (!result.ok) {
      throw insufficientCredits(insufficientMessage(label, total, result.available), {
        required: total,
        available: result.available,
      });
    }
    if (payer.delivery) payer.delivery.holdsCredits = true;
    return new OperationCharge(ledger, payer, fields, result.reservation);
  }

  /** The open hold as plain data, for a later stage to `resume`; undefined for a free operation. */
  get held(): HeldCharge | undefined {
    return this.reservation && { reservation: this.reservation, fields: this.fields };
  }

  /**
   * Decides what the answer costs (`chargesFor`) and arranges its settlement: on the delivery's outcome
   * over HTTP, else at once. Call it exactly once, with the answer as it will be sent; the returned
   * announcement goes out with it.
   */
  close(result: ChargedResult): Maybe<CreditsAnnouncement> {
    const held = this.reservation;
    this.reservation = undefined;
    // Nothing held: nothing to settle (a free call; without a partner it closes without a promise).
    if (!held) return this.announce(0, 0);
    return this.closeHeld(held, chargesFor(this.fields, result), !result.errors?.length);
  }

  /**
   * Settles with charges worked out earlier (a router learns the answer and its fate at different
   * stages): charged when `answered`, else released. Later calls do nothing.
   */
  async settle(charges: readonly Charge[], answered: boolean): Promise<void> {
    const held = this.reservation;
    this.reservation = undefined;
    if (held) await this.write(held, answered ? charges : []);
  }

  private async closeHeld(held: Reservation, charges: Charge[], clean: boolean): Promise<CreditsAnnouncement> {
    let total = 0;
    for (const c of charges) total += c.credits;
    // Read before the settlement is written: `remaining` takes this charge off the balance once.
    const announcement = await this.announce(total, held.credits);
    const delivery = this.payer.delivery;
    if (!delivery) {
      // Not over HTTP (an in-process call): the answer is handed over by returning it.
      await this.write(held, charges);
      return announcement;
    }
    // An answer that charged nothing and carries errors is not worth replaying: a retry runs again.
    const keep = charges.length > 0 || clean;
    delivery.onOutcome((outcome) => {
      const answered = outcome.delivered && outcome.statusCode === 200;
      if (!(answered && keep)) delivery.forgetAnswer?.();
      void this.write(held, answered ? charges : [], answered && keep ? delivery.recordAnswer : undefined);
    });
    return announcement;
  }

  private async write(held: Reservation, charges: readonly Charge[], within?: Delivery['recordAnswer']) {
    const { log, requestId } = this.payer;
    const total = await this.ledger.settleReliably(held, [...charges], requestId, {
      onError: (err, attempt) => log.error({ err, attempt }, 'credit settlement failed; retrying'),
      within,
    });
    if (total && charged.hasSubscribers) charged.publish(charges);
  }

  /** `x-credits-charged` and, for a partner, `x-credits-remaining`: the balance once this charge settles. */
  private announce(charged: number, held: number): Maybe<CreditsAnnouncement> {
    const partner = this.payer.partner;
    // Without a partner there is no balance to read: announced at once.
    if (!partner) return { charged };
    return remainingAfter(this.ledger, this.payer, partner.id, charged, held);
  }
}

/**
 * The balance a partner has once `charged` settles, `held` still taken off by the ledger. A header is not
 * worth failing an answer the partner is about to pay for: unreadable, it is left out.
 */
export async function remainingAfter(
  ledger: CreditLedger,
  payer: Payer,
  partnerId: string,
  charged: number,
  held: number,
): Promise<CreditsAnnouncement> {
  try {
    const seen = payer.memo?.get(AVAILABLE_SEEN) as { partnerId: string; available: number } | undefined;
    const available = await ledger.available(
      partnerId,
      held === 0 && seen?.partnerId === partnerId ? seen.available : undefined,
    );
    return { charged, remaining: available + held - charged };
  } catch (err) {
    payer.log.warn({ err }, 'could not read the balance for x-credits-remaining');
    return { charged };
  }
}

/** The announcement as response headers. */
export function creditHeaders(credits: CreditsAnnouncement): Record<string, string> {
  return credits.remaining === undefined
    ? { 'x-credits-charged': String(credits.charged) }
    : { 'x-credits-charged': String(credits.charged), 'x-credits-remaining': String(credits.remaining) };
}
