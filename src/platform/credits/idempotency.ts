import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/orm.js';
import { AppError, badInput } from '../errors.js';
import type { Delivery } from './delivery.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** Longest a repeat waits for an answered request's record to be written before it is told "in progress". */
const ANSWER_WAIT_MS = 5000;

/**
 * A key this process claimed and still writes. Once its answer is being sent, a repeat can only come from
 * a client that has (or will have) that answer, so it waits for the record instead of a 409.
 */
interface Claim {
  /** `${partnerId}\n${key}` */
  id: string;
  /** Waits for the delivery's outcome, then for the record's write (stored, or released). */
  written: () => Promise<void>;
  /** Set once the answer is being sent: `written()` then. */
  answered?: Promise<void>;
}

interface StoredRecord {
  request_hash: string;
  state: 'pending' | 'done';
  status_code: number | null;
  content_type: string | null;
  body: string | null;
  created_at: string | Date;
}

/**
 * What identifies "the same request": method, the concrete path and query string as sent, and body, not
 * headers. The route's pattern would not do: `DELETE /partners/webhooks/A` and `…/B` share one.
 */
function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.method, request.url, request.body ?? null]))
    .digest('hex');
}

/**
 * `Idempotency-Key` on partner calls (REST and /graphql): within 24 h the same key and partner get the
 * stored answer again and are not charged again; the same key with other parameters is a 400; while the
 * first request is still running a repeat is a 409. Only a delivered 200 is stored — and, for a paid
 * call, in the very transaction that charges it, so "answered" and "charged" cannot come apart. A
 * failure or an answer that never reached the client stores nothing: a retry runs again.
 *
 * Records live in the database, so the guarantee holds across processes.
 */
export const idempotencyPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      db: Database;
      staleAfterMs: number;
      /** Resolves once this process's settlements in flight for the partner are done (the ledger's). */
      settled?: (partnerId: string) => Promise<void>;
    },
  ) => {
    const { db } = opts;
    const claims = new Map<string, Claim>();
    const claimOf = new WeakMap<FastifyRequest, Claim>();
    // Any answer, 200 or not: a repeat arriving from here on is a retry of an answered request.
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (!request.delivery?.capturePayload) return done(null, payload);
      const claim = claimOf.get(request);
      if (claim && !claim.answered) {
        // Nobody may be waiting: a failure to follow the write is not left unhandled.
        claim.answered = claim
          .written()
          .catch((err) => request.log.warn({ err }, 'idempotency record write could not be followed'))
          .finally(() => {
            if (claims.get(claim.id) === claim) claims.delete(claim.id);
          });
      }
      done(null, payload);
    });
    const bounded = (work: Promise<unknown>) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ANSWER_WAIT_MS);
      });
      return Promise.race([work, late]).finally(() => clearTimeout(timer));
    };
    // Callback-style: most requests carry no key, and they pass without a promise or a microtask hop.
    app.addHook('preHandler', (request, reply, done) => {
      const header = request.headers['idempotency-key'];
      const { partner, delivery } = request;
      if (header === undefined || !partner || !delivery) return done();
      // A stored answer replayed is sent here, and then the request goes no further.
      claimOrReplay(request, reply, header, partner.id, delivery).then((replayed) => replayed || done(), done);
    });
    /** Claims the key for this request (false), replays its stored answer (true) or refuses a conflict. */
    const claimOrReplay = async (
      request: FastifyRequest,
      reply: FastifyReply,
      header: string | string[],
      partnerId: string,
      delivery: Delivery,
    ) => {
      const key = Array.isArray(header) ? header[0] : header;
      if (typeof key !== 'string' || !KEY.test(key)) {
        throw badInput('Idempotency-Key must be 1 to 255 visible ASCII characters');
      }
      const hash = requestHash(request);
      const claimId = `${partnerId}\n${key}`;
      const now = new Date();
      const claim = () =>
        db.run(
          `insert into idempotency_record (partner_id, idempotency_key, request_hash, state, created_at, expires_at)
           values (?, ?, ?, 'pending', ?, ?) on conflict (partner_id, idempotency_key) do nothing`,
          [partnerId, key, hash, now, new Date(now.getTime() + RETENTION_MS)],
        );
      const read = async () =>
        (
          await db.query<StoredRecord>(
            `select request_hash, state, status_code, content_type, body, created_at from idempotency_record
              where partner_id = ? and idempotency_key = ?`,
            [partnerId, key],
          )
        )[0];
      if ((await claim()) !== 1) {
        let record = await read();
        if (record?.state === 'pending' && record.request_hash === hash) {
          // The first request may have answered already, its record still being written (a free answer)
          // or settled with its charge: wait for that rather than answer "in progress" to a prompt retry.
          // One claimed here and not answered yet is still running: refused below without waiting.
          const mine = claims.get(claimId);
          const writing = mine ? mine.answered : opts.settled?.(partnerId);
          if (!mine || writing) {
            if (writing) await bounded(writing);
            record = await read();
          }
        }
        const age = record ? now.getTime() - new Date(record.created_at).getTime() : Number.POSITIVE_INFINITY;
        const expired = age > RETENTION_MS;
        // A pending record older than a credit hold belongs to a process that died mid-request.
        const abandoned = record?.state === 'pending' && age > opts.staleAfterMs;
        if (!record || expired || abandoned) {
          await db.run(
            'delete from idempotency_record where partner_id = ? and idempotency_key = ? and request_hash = ?',
            [partnerId, key, record?.request_hash ?? hash],
          );
          if ((await claim()) !== 1)
            throw new AppError('CONFLICT', 'A request with this Idempotency-Key is in progress');
        } else if (record.request_hash !== hash) {
          throw badInput('Idempotency-Key was already used with other parameters');
        } else if (record.state === 'pending') {
          throw new AppError(
            'CONFLICT',
            'A request with this Idempotency-Key is in progress; retry once it has answered',
          );
        } else {
          reply
            .code(record.status_code ?? 200)
            .header('idempotent-replayed', 'true')
            .type(record.content_type ?? 'application/json; charset=utf-8');
          reply.send(record.body ?? '');
          return true;
        }
      }

      delivery.capturePayload = true;
      // The record's writes after the answer, which a waiting repeat must see finished.
      const writes: Promise<void>[] = [];
      const store = (tx: Pick<Database, 'run'>) =>
        tx
          .run(
            `update idempotency_record set state = 'done', status_code = 200, content_type = ?, body = ?
              where partner_id = ? and idempotency_key = ? and state = 'pending'`,
            [delivery.contentType ?? null, delivery.payload ?? '', partnerId, key],
          )
          .then(() => undefined);
      const forget = () => {
        writes.push(
          db
            .run(`delete from idempotency_record where partner_id = ? and idempotency_key = ? and state = 'pending'`, [
              partnerId,
              key,
            ])
            .then(
              () => undefined,
              (err) => request.log.warn({ err }, 'idempotency record could not be released'),
            ),
        );
      };
      delivery.recordAnswer = store;
      delivery.forgetAnswer = forget;
      let outcomeKnown!: () => void;
      const outcome = new Promise<void>((resolve) => {
        outcomeKnown = resolve;
      });
      const entry: Claim = {
        id: claimId,
        // Continues after every callback run with the outcome (this plugin's, then the charge's, which
        // starts its settlement or calls `forget`), so each write is under way by then.
        written: async () => {
          await outcome;
          await Promise.all(writes);
          // A paid answer is stored by its settlement, in the charge's transaction; the ledger follows it.
          if (delivery.holdsCredits) await opts.settled?.(partnerId);
        },
      };
      claims.set(claimId, entry);
      claimOf.set(request, entry);
      delivery.onOutcome((outcome) => {
        outcomeKnown();
        // A paid answer is stored or forgotten by its settlement (same transaction as the charge).
        if (delivery.holdsCredits) return;
        if (!(outcome.delivered && outcome.statusCode === 200)) return forget();
        writes.push(store(db).catch((err) => request.log.warn({ err }, 'idempotency record could not be stored')));
      });
      return false;
    };
  },
  { name: 'idempotency' },
);

/** Deletes records past their 24 h; returns how many. */
export async function sweepIdempotencyRecords(db: Database, now = new Date()): Promise<number> {
  return db.run('delete from idempotency_record where expires_at < ?', [now]);
}
