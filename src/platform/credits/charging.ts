import { insufficientCredits, unauthenticated } from '../errors.js';
import type { RequestContext } from '../graphql/context.js';
import { recordCharges } from '../http/metrics.js';
import type { Maybe } from '../maybe.js';
import type { Charge, Reservation } from './ledger.js';
import type { RootField } from './root-fields.js';

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

const AVAILABLE_SEEN = 'credits.availableSeen';

/**
 * Records the partner's available balance (balance − reserved) as a resolver of this request just read it
 * from the partner row, so the answer's `x-credits-remaining` of a free call needs no second read.
 */
export function availableSeen(ctx: RequestContext, partnerId: string, available: number): void {
  ctx.memo.set(AVAILABLE_SEEN, { partnerId, available });
}

const plural = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** The refusal's words, the same on every path and router, so a client parses one message. */
export const insufficientMessage = (label: string, required: number, available: number) =>
  `Insufficient credits: ${label} requires ${plural(required)}, but the balance available is ${plural(available)}`;

const paidNames = (fields: readonly RootField[]) =>
  fields
    .filter((f) => f.price > 0)
    .map((f) => f.fieldName)
    .join(' + ');

/**
 * One request's charge, the same for every way an operation is executed (Apollo's pipeline on /graphql,
 * the compiled path of REST routes and single-fetch GraphQL): `open` reserves the sum of the root fields'
 * prices before anything runs, `close` charges the root fields that answered — settled only once the
 * answer reached the client with HTTP 200 (see delivery.ts) — and releases the rest.
 */
export class RequestCharge {
  private constructor(
    private readonly ctx: RequestContext,
    private readonly fields: readonly RootField[],
    private reservation: Reservation | undefined,
  ) {}

  /**
   * Reserves the operation's price. Throws UNAUTHENTICATED for paid fields without a partner and
   * INSUFFICIENT_CREDITS when the available balance does not cover it; both are free refusals.
   */
  static open(ctx: RequestContext, fields: readonly RootField[]): Maybe<RequestCharge> {
    let total = 0;
    for (const f of fields) total += f.price;
    // A free call holds nothing: opened at once, no promise (a public lookup is all free calls).
    if (total === 0) return new RequestCharge(ctx, fields, undefined);
    return RequestCharge.reserve(ctx, fields, total);
  }

  private static async reserve(
    ctx: RequestContext,
    fields: readonly RootField[],
    total: number,
  ): Promise<RequestCharge> {
    if (!ctx.partner) {
      throw unauthenticated(`A valid x-api-key header is required for paid fields (${paidNames(fields)})`);
    }
    const label = ctx.operationLabel ?? paidNames(fields);
    const result = await ctx.services.ledger.reserve(ctx.partner.id, total, label, ctx.requestId);
    if (!result.ok) {
      throw insufficientCredits(insufficientMessage(label, total, result.available), {
        required: total,
        available: result.available,
      });
    }
    if (ctx.delivery) ctx.delivery.holdsCredits = true;
    return new RequestCharge(ctx, fields, result.reservation);
  }

  /**
   * Decides what the answer costs (each paid root field that answered without error; nothing when the
   * request as a whole failed) and arranges its settlement. Call it exactly once, with the answer as it
   * will be sent; the returned announcement goes out with it.
   */
  close(result: ChargedResult): Maybe<CreditsAnnouncement> {
    const held = this.reservation;
    this.reservation = undefined;
    // Nothing held: nothing to settle (a free call; without a partner it closes without a promise).
    if (!held) return this.announce(0, 0);
    return this.settle(held, result);
  }

  private async settle(held: Reservation, result: ChargedResult): Promise<CreditsAnnouncement> {
    const data = result.data ?? null;
    const failed = new Set((result.errors ?? []).map((e) => e.path?.[0]).filter((k) => k !== undefined));
    const requestFailed = !data || (result.errors ?? []).some((e) => !e.path);
    const charges: Charge[] = requestFailed
      ? []
      : this.fields
          .filter((f) => f.price > 0 && f.responseKey in data && !failed.has(f.responseKey))
          .map((f) => ({ operation: f.fieldName, credits: f.price }));
    let charged = 0;
    for (const c of charges) charged += c.credits;
    const announcement = await this.announce(charged, held.credits);
    const { ctx } = this;
    const { ledger } = ctx.services;
    const onError = (err: unknown, attempt: number) =>
      ctx.log.error({ err, attempt }, 'credit settlement failed; retrying');
    const delivery = ctx.delivery;
    if (!delivery) {
      // Not over HTTP (an in-process call): the answer is handed over by returning it.
      if (await ledger.settleReliably(held, charges, ctx.requestId, { onError })) recordCharges(charges);
      return announcement;
    }
    // An answer that charged nothing and carries errors is not worth replaying: a retry runs again.
    const keep = charges.length > 0 || !result.errors?.length;
    delivery.onOutcome((outcome) => {
      const answered = outcome.delivered && outcome.statusCode === 200;
      if (!(answered && keep)) delivery.forgetAnswer?.();
      void ledger
        .settleReliably(held, answered ? charges : [], ctx.requestId, {
          onError,
          within: answered && keep ? delivery.recordAnswer : undefined,
        })
        .then((total) => {
          if (answered && total) recordCharges(charges);
        });
    });
    return announcement;
  }

  /** `x-credits-charged` and, for a partner, `x-credits-remaining`: the balance once this charge settles. */
  private announce(charged: number, held: number): Maybe<CreditsAnnouncement> {
    const partner = this.ctx.partner;
    // Without a partner there is no balance to read: announced at once.
    if (!partner) return { charged };
    return this.remaining(partner.id, charged, held);
  }

  private async remaining(partnerId: string, charged: number, held: number): Promise<CreditsAnnouncement> {
    try {
      const seen = this.ctx.memo.get(AVAILABLE_SEEN) as { partnerId: string; available: number } | undefined;
      // The available balance still has this request's hold taken off.
      const available = await this.ctx.services.ledger.available(
        partnerId,
        held === 0 && seen?.partnerId === partnerId ? seen.available : undefined,
      );
      return { charged, remaining: available + held - charged };
    } catch (err) {
      // A header is not worth failing an answer the partner is about to pay for.
      this.ctx.log.warn({ err }, 'could not read the balance for x-credits-remaining');
      return { charged };
    }
  }
}

/** The announcement as response headers. */
export function creditHeaders(credits: CreditsAnnouncement): Record<string, string> {
  return credits.remaining === undefined
    ? { 'x-credits-charged': String(credits.charged) }
    : { 'x-credits-charged': String(credits.charged), 'x-credits-remaining': String(credits.remaining) };
}
