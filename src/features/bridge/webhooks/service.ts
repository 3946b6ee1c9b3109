/**
 * Bridge status pushed to partners. A transfer a partner asked about (or subscribed to) is followed:
 * looked at again with backoff until it is final, for at most 24 hours. Each change of its status
 * (status + substatus) is numbered once per partner, under a compare-and-set on the follow row, then
 * queued for every webhook of the partner and published to its subscriptions. Deliveries are signed,
 * retried with backoff for 24 hours, one transfer's changes in order, and recorded.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter, on } from 'node:events';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from '../../../platform/db/orm.js';
import { limitClause } from '../../../platform/db/sql-limit.js';
import { badInput, notFound, quoted } from '../../../platform/errors.js';
import type { BridgeService, StatusAnswered } from '../service.js';
import type { BridgeStatus } from '../types.js';
import { normalizeTxHash, requireTxHash } from '../validation.js';
import { checkTarget, guardedLookup, type TargetPolicy } from './target.js';

export interface PushOptions extends TargetPolicy {
  followIntervalMs: number;
  retryBaseMs: number;
  timeoutMs: number;
}

/** One status change of one transfer, as webhooks and subscriptions receive it. */
export interface StatusChange {
  txHash: string;
  /** 1 for the first status seen, then one more per change. */
  sequence: number;
  occurredAt: string;
  transfer: BridgeStatus;
}

export interface WebhookInfo {
  id: string;
  url: string;
  createdAt: string;
}

export interface DeliveryInfo {
  id: string;
  txHash: string;
  sequence: number;
  state: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

const DAY_MS = 24 * 3600 * 1000;
/** At most this many webhooks per partner: each change is sent to every one. */
const MAX_WEBHOOKS = 10;
const BATCH = 20;

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());
const keyOf = (s: BridgeStatus) => `${s.status}:${s.substatus ?? ''}`;
const isFinal = (s: BridgeStatus) => s.status === 'DONE' || s.status === 'FAILED';

/** `x-cipgate-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs. */
export function signature(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class WebhookService {
  private readonly changes = new EventEmitter();
  private timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;
  private delivering = false;
  private polling = false;

  constructor(
    private readonly db: Database,
    private readonly bridge: BridgeService,
    private readonly options: PushOptions,
    private readonly log: Logger,
  ) {
    this.changes.setMaxListeners(0);
  }

  private readonly onAnswered = (event: StatusAnswered) => {
    this.track(this.observe(event));
  };

  start(): void {
    this.bridge.statusAnswered.on('answered', this.onAnswered);
    const tick = Math.min(this.options.followIntervalMs, this.options.retryBaseMs, 1000);
    this.timers = [setInterval(() => this.kick(), tick)];
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.bridge.statusAnswered.off('answered', this.onAnswered);
    for (const timer of this.timers) clearInterval(timer);
    this.changes.emit('stop');
    await Promise.allSettled([...this.running]);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((err) => this.log.warn({ err }, 'bridge status push failed'));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Runs the follower and the deliverer once, unless a previous round is still going. */
  private kick(): void {
    if (this.stopped) return;
    if (!this.polling) {
      this.polling = true;
      this.track(this.pollDue().finally(() => (this.polling = false)));
    }
    this.deliverSoon();
  }

  private deliverSoon(): void {
    if (this.stopped || this.delivering) return;
    this.delivering = true;
    this.track(this.deliverDue().finally(() => (this.delivering = false)));
  }

  // ---- webhooks ----

  async register(partnerId: string, rawUrl: string): Promise<WebhookInfo & { secret: string }> {
    const url = await checkTarget(rawUrl, this.options);
    const [count] = await this.db.query<{ n: number | string }>(
      'select count(*) as n from bridge_webhook where partner_id = ? and deleted_at is null',
      [partnerId],
    );
    if (Number(count?.n ?? 0) >= MAX_WEBHOOKS) throw badInput(`At most ${MAX_WEBHOOKS} webhooks per partner`);
    const id = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const createdAt = new Date();
    await this.db.run('insert into bridge_webhook (id, partner_id, url, secret, created_at) values (?, ?, ?, ?, ?)', [
      id,
      partnerId,
      url.href,
      secret,
      createdAt,
    ]);
    return { id, url: url.href, createdAt: createdAt.toISOString(), secret };
  }

  async list(partnerId: string): Promise<WebhookInfo[]> {
    const rows = await this.db.query<{ id: string; url: string; created_at: unknown }>(
      'select id, url, created_at from bridge_webhook where partner_id = ? and deleted_at is null order by created_at, id',
      [partnerId],
    );
    return rows.map((r) => ({ id: r.id, url: r.url, createdAt: iso(r.created_at) as string }));
  }

  /** Stops a webhook; its pending deliveries are not sent. Its delivery record stays listable. */
  async remove(partnerId: string, id: string): Promise<WebhookInfo> {
    const webhook = await this.own(partnerId, id);
    await this.db.run('update bridge_webhook set deleted_at = ? where id = ? and deleted_at is null', [new Date(), id]);
    return webhook;
  }

  async deliveries(partnerId: string, id: string, limit: number): Promise<DeliveryInfo[]> {
    await this.own(partnerId, id, true);
    const rows = await this.db.query<Record<string, unknown>>(
      `select id, tx_hash, seq, state, attempts, last_status_code, last_error, next_attempt_at, delivered_at, created_at
         from bridge_webhook_delivery where webhook_id = ? order by created_at desc, seq desc ${limitClause(limit)}`,
      [id],
    );
    return rows.map((r) => ({
      id: r.id as string,
      txHash: r.tx_hash as string,
      sequence: Number(r.seq),
      state: r.state as string,
      attempts: Number(r.attempts),
      lastStatusCode: r.last_status_code == null ? null : Number(r.last_status_code),
      lastError: (r.last_error as string | null) ?? null,
      nextAttemptAt: r.state === 'pending' ? iso(r.next_attempt_at) : null,
      deliveredAt: iso(r.delivered_at),
      createdAt: iso(r.created_at) as string,
    }));
  }

  private async own(partnerId: string, id: string, deletedToo = false): Promise<WebhookInfo> {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (!uuid.test(id)) throw badInput(`id must be a webhook id, got ${quoted(id)}`);
    const [row] = await this.db.query<{ id: string; url: string; created_at: unknown }>(
      `select id, url, created_at from bridge_webhook where id = ? and partner_id = ?${deletedToo ? '' : ' and deleted_at is null'}`,
      [id.toLowerCase(), partnerId],
    );
    if (!row) throw notFound(`Webhook ${id} not found`);
    return { id: row.id, url: row.url, createdAt: iso(row.created_at) as string };
  }

  // ---- following transfers ----

  /** Follows a transfer for a partner from now on (a subscription asks for it); looks at it at once. */
  async follow(partnerId: string, sandbox: boolean, rawTxHash: string): Promise<{ txHash: string }> {
    requireTxHash(rawTxHash);
    const txHash = normalizeTxHash(rawTxHash);
    const now = new Date();
    const inserted = await this.db.run(
      `insert into bridge_follow (partner_id, tx_hash, sandbox, seq, checks, next_check_at, created_at)
       values (?, ?, ?, 0, 0, ?, ?) on conflict (partner_id, tx_hash) do nothing`,
      [partnerId, txHash, sandbox, now, now],
    );
    // Following again after it was given up on (but not after it finished): look once more.
    if (!inserted)
      await this.db.run(
        `update bridge_follow set next_check_at = ?, checks = 0, created_at = ?
          where partner_id = ? and tx_hash = ? and next_check_at is null and (last_key is null or (last_key not like 'DONE:%' and last_key not like 'FAILED:%'))`,
        [now, now, partnerId, txHash],
      );
    this.kick();
    return { txHash };
  }

  /** The last change already seen for the partner's transfer, if any. */
  async lastChange(partnerId: string, txHash: string): Promise<StatusChange | undefined> {
    const [row] = await this.db.query<{ last_answer: string | null }>(
      'select last_answer from bridge_follow where partner_id = ? and tx_hash = ?',
      [partnerId, normalizeTxHash(txHash)],
    );
    return row?.last_answer ? (JSON.parse(row.last_answer) as StatusChange) : undefined;
  }

  /**
   * The partner's changes of one transfer from now on: the last one already seen first (a subscriber
   * learns where the transfer stands), then each new one, until the transfer is final.
   */
  async subscribe(partnerId: string, sandbox: boolean, rawTxHash: string): Promise<AsyncGenerator<StatusChange>> {
    // Checked before the stream starts, so a bad hash is the subscription's error, not its first event.
    const { txHash } = await this.follow(partnerId, sandbox, rawTxHash);
    return this.stream(partnerId, txHash);
  }

  private async *stream(partnerId: string, txHash: string): AsyncGenerator<StatusChange> {
    const abort = new AbortController();
    const topic = `${partnerId}:${txHash}`;
    const stop = () => abort.abort();
    this.changes.once('stop', stop);
    // Listen before reading the last change, so nothing falls between the two.
    const events = on(this.changes, topic, { signal: abort.signal });
    try {
      let seen = 0;
      const last = await this.lastChange(partnerId, txHash);
      if (last) {
        seen = last.sequence;
        yield last;
        if (isFinal(last.transfer)) return;
      }
      for await (const [change] of events as AsyncIterable<[StatusChange]>) {
        if (change.sequence <= seen) continue;
        seen = change.sequence;
        yield change;
        if (isFinal(change.transfer)) return;
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    } finally {
      this.changes.off('stop', stop);
      abort.abort();
    }
  }

  /** A status answer for a partner: the change, if it is one, numbered once and pushed. */
  async observe({ txHash: rawTxHash, bridge, caller, answer }: StatusAnswered): Promise<void> {
    const { partnerId, sandbox } = caller;
    if (!partnerId || this.stopped) return;
    const txHash = normalizeTxHash(rawTxHash);
    const key = keyOf(answer);
    const now = new Date();
    const change = await this.db.transaction(async (tx) => {
      const [follow] = await tx.query<{ seq: number | string; last_key: string | null }>(
        'select seq, last_key from bridge_follow where partner_id = ? and tx_hash = ?',
        [partnerId, txHash],
      );
      if (!follow) {
        // Only a partner with a webhook has transfers followed without subscribing.
        const hooks = await tx.query('select id from bridge_webhook where partner_id = ? and deleted_at is null', [
          partnerId,
        ]);
        if (hooks.length === 0) return undefined;
        await tx.run(
          `insert into bridge_follow (partner_id, tx_hash, sandbox, bridge, seq, checks, next_check_at, created_at)
           values (?, ?, ?, ?, 0, 0, ?, ?) on conflict (partner_id, tx_hash) do nothing`,
          [partnerId, txHash, sandbox, bridge, now, now],
        );
      } else if (follow.last_key === key) return undefined;
      const sequence = Number(follow?.seq ?? 0) + 1;
      const change: StatusChange = { txHash, sequence, occurredAt: now.toISOString(), transfer: answer };
      // The compare-and-set that makes each change announced once, whoever observed it.
      const updated = await tx.run(
        `update bridge_follow set seq = ?, last_key = ?, last_answer = ?${isFinal(answer) ? ', next_check_at = null' : ''}
          where partner_id = ? and tx_hash = ? and seq = ?`,
        [sequence, key, JSON.stringify(change), partnerId, txHash, sequence - 1],
      );
      if (updated === 0) return undefined;
      const hooks = await tx.query<{ id: string }>(
        'select id from bridge_webhook where partner_id = ? and deleted_at is null',
        [partnerId],
      );
      for (const hook of hooks) {
        await tx.run(
          `insert into bridge_webhook_delivery (id, webhook_id, tx_hash, seq, payload, state, attempts, next_attempt_at, created_at)
           values (?, ?, ?, ?, ?, 'pending', 0, ?, ?) on conflict (webhook_id, tx_hash, seq) do nothing`,
          [
            randomUUID(),
            hook.id,
            txHash,
            sequence,
            JSON.stringify({ type: 'bridge.status_changed', ...change }),
            now,
            now,
          ],
        );
      }
      return change;
    });
    if (!change) return;
    this.changes.emit(`${partnerId}:${txHash}`, change);
    this.deliverSoon();
  }

  /** Looks at the followed transfers that are due, each claimed by one process (compare-and-set on `checks`). */
  private async pollDue(): Promise<void> {
    const now = new Date();
    const due = await this.db.query<{
      partner_id: string;
      tx_hash: string;
      sandbox: unknown;
      bridge: string | null;
      checks: number | string;
      created_at: unknown;
    }>(
      `select partner_id, tx_hash, sandbox, bridge, checks, created_at from bridge_follow
        where next_check_at is not null and next_check_at <= ? order by next_check_at limit ${BATCH}`,
      [now],
    );
    await Promise.all(
      due.map(async (row) => {
        const checks = Number(row.checks);
        const base = this.options.followIntervalMs;
        const wait = Math.min(base * 2 ** Math.min(checks, 20), 20 * base);
        const givenUp = new Date(row.created_at as string).getTime() + DAY_MS < now.getTime();
        const claimed = await this.db.run(
          'update bridge_follow set checks = ?, next_check_at = ? where partner_id = ? and tx_hash = ? and checks = ?',
          [checks + 1, givenUp ? null : new Date(now.getTime() + wait), row.partner_id, row.tx_hash, checks],
        );
        if (!claimed || givenUp || this.stopped) return;
        const sandbox = row.sandbox === true || row.sandbox === 1 || row.sandbox === '1' || row.sandbox === 't';
        try {
          // The answer comes back through `statusAnswered`, like a partner's own call.
          await this.bridge.status({ txHash: row.tx_hash, bridge: row.bridge }, { partnerId: row.partner_id, sandbox });
        } catch (err) {
          this.log.debug({ err, txHash: row.tx_hash }, 'followed transfer: status unavailable, will look again');
        }
      }),
    );
  }

  // ---- delivery ----

  private async deliverDue(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = new Date();
      // A transfer's changes go out in order: nothing overtakes an earlier change still pending.
      const due = await this.db.query<{
        id: string;
        tx_hash: string;
        seq: number | string;
        payload: string;
        attempts: number | string;
        url: string;
        secret: string;
      }>(
        `select d.id, d.tx_hash, d.seq, d.payload, d.attempts, w.url, w.secret
           from bridge_webhook_delivery d join bridge_webhook w on w.id = d.webhook_id
          where d.state = 'pending' and d.next_attempt_at <= ? and w.deleted_at is null
            and not exists (select 1 from bridge_webhook_delivery e
                             where e.webhook_id = d.webhook_id and e.tx_hash = d.tx_hash and e.seq < d.seq and e.state = 'pending')
          order by d.created_at, d.seq limit ${BATCH}`,
        [now],
      );
      if (due.length === 0) return;
      const sent = await Promise.all(due.map((d) => this.attempt(d)));
      if (!sent.some(Boolean)) return;
    }
  }

  /** One attempt at one delivery, claimed first so that no other round or process sends it too. */
  private async attempt(d: {
    id: string;
    payload: string;
    attempts: number | string;
    url: string;
    secret: string;
  }): Promise<boolean> {
    const attempts = Number(d.attempts) + 1;
    const lease = new Date(Date.now() + this.options.timeoutMs * 2 + 1000);
    const claimed = await this.db.run(
      `update bridge_webhook_delivery set attempts = ?, next_attempt_at = ? where id = ? and attempts = ? and state = 'pending'`,
      [attempts, lease, d.id, attempts - 1],
    );
    if (!claimed) return false;
    const timestamp = Math.floor(Date.now() / 1000);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const url = await checkTarget(d.url, this.options);
      statusCode = await this.post(url, d.payload, {
        'content-type': 'application/json',
        'user-agent': 'cipgate-webhooks/1',
        'x-cipgate-delivery': d.id,
        'x-cipgate-signature': signature(d.secret, timestamp, d.payload),
      });
      if (statusCode < 200 || statusCode > 299) error = `answered HTTP ${statusCode}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const now = new Date();
    if (!error) {
      await this.db.run(
        `update bridge_webhook_delivery set state = 'delivered', delivered_at = ?, last_status_code = ?, last_error = null where id = ?`,
        [now, statusCode, d.id],
      );
      return true;
    }
    const wait = Math.min(this.options.retryBaseMs * 2 ** Math.min(attempts - 1, 20), 3600_000);
    const next = new Date(now.getTime() + wait);
    // Retried for 24 hours from the change; then it is recorded as failed.
    await this.db.run(
      `update bridge_webhook_delivery set last_status_code = ?, last_error = ?, next_attempt_at = ?,
              state = case when created_at < ? then 'failed' else 'pending' end
        where id = ?`,
      [statusCode, error.slice(0, 500), next, new Date(next.getTime() - DAY_MS), d.id],
    );
    return true;
  }

  private post(url: URL, body: string, headers: Record<string, string>): Promise<number> {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: guardedLookup(this.options) as never,
          timeout: this.options.timeoutMs,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        },
        (res) => {
          // The answer's body is not read beyond what it takes to finish the exchange.
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}
