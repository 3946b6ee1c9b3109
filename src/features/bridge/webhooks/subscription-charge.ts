import type { FastifyBaseLogger as Logger } from 'fastify';
import { OperationCharge } from '../../../platform/credits/charging.js';
import type { CreditLedger } from '../../../platform/credits/ledger.js';
import { unauthenticated } from '../../../platform/errors.js';

/** The one subscription, and what its start is charged as in the ledger. */
export const SUBSCRIPTION_OPERATION = 'bridgeStatusChanged';

/**
 * A subscription's charge, through the same `OperationCharge` as a request's: its price is held when it
 * starts (a refusal is free, as over HTTP), charged once, when its first event was written to the socket
 * (later events are free, as webhooks are), and released if it ends before any was.
 */
export class SubscriptionCharge {
  private constructor(
    private readonly charge: OperationCharge,
    private readonly price: number,
  ) {}

  /** Holds `price`; throws UNAUTHENTICATED without a partner, INSUFFICIENT_CREDITS when it is not covered. */
  static async open(
    ledger: CreditLedger,
    partnerId: string | null,
    price: number,
    requestId: string,
    log: Logger,
  ): Promise<SubscriptionCharge> {
    if (!partnerId) throw unauthenticated(`A valid x-api-key is required for paid fields (${SUBSCRIPTION_OPERATION})`);
    const field = { responseKey: SUBSCRIPTION_OPERATION, fieldName: SUBSCRIPTION_OPERATION, price: Math.max(price, 0) };
    // Per request, not from a lease: a hold may last as long as the first event takes.
    const charge = await OperationCharge.open(
      ledger,
      { partner: { id: partnerId }, requestId, log, operationLabel: SUBSCRIPTION_OPERATION },
      [field],
      { lease: false },
    );
    return new SubscriptionCharge(charge, field.price);
  }

  /** The first event reached the socket: charged, once; later calls do nothing. */
  delivered(): Promise<void> {
    return this.charge.settle([{ operation: SUBSCRIPTION_OPERATION, credits: this.price }], true);
  }

  /** The subscription ended: released unless it was charged. */
  end(): Promise<void> {
    return this.charge.settle([], false);
  }
}
