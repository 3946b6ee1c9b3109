import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/orm.js';

/** How a request's answer ended: handed to the socket with a status, or never written (client gone). */
export type Outcome = { delivered: true; statusCode: number } | { delivered: false };

/**
 * Tells whoever charges a request whether its answer reached the client. The spec charges "after a
 * successful response (HTTP 200) only", so the ledger settles on the outcome of the write, not when the
 * answer is computed: a client that hung up before the answer was written pays nothing.
 */
export class Delivery {
  private outcome: Outcome | undefined;
  private readonly waiters: ((outcome: Outcome) => void)[] = [];
  /** Set by the credit plugin when this request holds credits that the outcome will settle. */
  holdsCredits = false;
  /** The answer as written (only captured while `capturePayload` is set, for idempotent replays). */
  payload: string | undefined;
  contentType: string | undefined;
  capturePayload = false;
  /** Stores the delivered answer inside the settling transaction (set for idempotent requests). */
  recordAnswer: ((tx: Pick<Database, 'query' | 'run'>) => Promise<void>) | undefined;
  /** Drops the idempotency claim of an answer that is not kept (failed, or charged nothing with errors). */
  forgetAnswer: (() => void) | undefined;

  /** Runs `fn` with the outcome once it is known (at once if it already is). */
  onOutcome(fn: (outcome: Outcome) => void): void {
    if (this.outcome) fn(this.outcome);
    else this.waiters.push(fn);
  }

  /** First outcome wins: a response that finished and then closed was delivered. */
  resolve(outcome: Outcome): void {
    if (this.outcome) return;
    this.outcome = outcome;
    for (const fn of this.waiters.splice(0)) fn(outcome);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    delivery: Delivery | null;
  }
}

/**
 * Follows each response to the socket. `finish` means the whole answer was handed to the operating
 * system; `close` before it means the connection went away first (then nothing is charged).
 */
export const deliveryPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('delivery', null);
  // Only a partner's request can hold credits (or an idempotency record): the public interface and
  // keyless GraphQL calls charge nothing, so they are not followed.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.partner) {
      const delivery = new Delivery();
      request.delivery = delivery;
      const res = reply.raw;
      res.once('finish', () => delivery.resolve({ delivered: true, statusCode: res.statusCode }));
      res.once('close', () => delivery.resolve({ delivered: false }));
      // A client that hung up while the earlier hooks ran (the key check) has already closed the response,
      // and a 'close' listener added now never fires: the request's credits would stay held until their
      // reservation expired.
      if (res.destroyed) delivery.resolve({ delivered: false });
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const delivery = request.delivery;
    if (delivery?.capturePayload && reply.statusCode === 200) {
      delivery.payload =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
      const type = reply.getHeader('content-type');
      delivery.contentType = typeof type === 'string' ? type : undefined;
    }
    done(null, payload);
  });
});
