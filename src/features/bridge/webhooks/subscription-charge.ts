import type { FastifyBaseLogger as Logger } from 'fastify';
import { insufficientMessage } from '../../../platform/credits/charging.js';
import type { Charge, CreditLedger, Reservation } from '../../../platform/credits/ledger.js';
import { insufficientCredits, unauthenticated } from '../../../platform/errors.js';
import { recordCharges } from '../../../platform/http/metrics.js';

/** The one subscription, and what its start is charged as in the ledger. */
export const SUBSCRIPTION_OPERATION = 'bridgeStatusChanged';

/**
 * A subscription's charge, on the credit ledger like a request's (see credits/charging.ts): its price is
 * held when it starts (a refusal is free, as over HTTP), charged once, when its first event was written to
 * the socket (later events are free, as webhooks are), and released if it ends before any was.
 */
export class SubscriptionCharge {
  private reservation: Reservation | undefined;

  private constructor(
    private readonly ledger: CreditLedger,
    reservation: Reservation | undefined,
    private readonly requestId: string,
    private readonly log: Logger,
  ) {
    this.reservation = reservation;
  }

  /** Holds `price`; throws UNAUTHENTICATED without a partner, INSUFFICIENT_CREDITS when it is not covered. */
  static async open(
    ledger: CreditLedger,
    partnerId: string | null,
    price: number,
    requestId: string,
    log: Logger,
  ): Promise<SubscriptionCharge> {
    if (!partnerId) throw unauthenticated(`A valid x-api-key is required for paid fields (${SUBSCRIPTION_OPERATION})`);
    if (price <= 0) return new SubscriptionCharge(ledger, undefined, requestId, log);
    // Per request, not from a lease: a hold may last as long as the first event takes.
    const held = await ledger.reserve(partnerId, price, SUBSCRIPTION_OPERATION, requestId, { lease: false });
    if (!held.ok) {
      throw insufficientCredits(insufficientMessage(SUBSCRIPTION_OPERATION, price, held.available), {
        required: price,
        available: held.available,
      });
    }
    return new SubscriptionCharge(ledger, held.reservation, requestId, log);
  }

  /** The first event reached the socket: charged, once; later calls do nothing. */
  delivered(): Promise<void> {
    return this.settle(true);
  }

  /** The subscription ended: released unless it was charged. */
  end(): Promise<void> {
    return this.settle(false);
  }

  private async settle(charge: boolean): Promise<void> {
    const held = this.reservation;
    this.reservation = undefined;
    if (!held) return;
    const charges: Charge[] = charge ? [{ operation: SUBSCRIPTION_OPERATION, credits: held.credits }] : [];
    const total = await this.ledger.settleReliably(held, charges, this.requestId, {
      onError: (err, attempt) => this.log.error({ err, attempt }, 'subscription credit settlement failed; retrying'),
    });
    if (total) recordCharges(charges);
  }
}
