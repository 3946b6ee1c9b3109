/**
 * Bridge status pushed to partners. A transfer a partner asked about (or subscribed to) is followed:
 * looked at again with backoff until it is final, for at most 24 hours. Each change of its status
 * (status + substatus) is numbered once per partner, under a compare-and-set on the follow row, then
 * queued for every webhook of the partner and published to its subscriptions. Deliveries are signed,
 * retried with backoff for 24 hours, one transfer's changes in order, and recorded.
 *
 * Bounds, so that no partner's push costs others: open subscriptions and followed transfers are capped
 * per partner across processes (rows in the database), a follow stops once no subscription or webhook
 * needs it, the follower takes a few due transfers of each partner per round, and each webhook has at
 * most one delivery in flight, each sent on its own, so a slow receiver delays only itself.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from '../../../platform/db/orm.js';
import { limitClause } from '../../../platform/db/sql-limit.js';
import { AppError, badInput, ErrorCode, notFound, quoted } from '../../../platform/errors.js';
import type { BridgeService, StatusAnswered } from '../service.js';
import type { BridgeStatus } from '../types.js';
import { normalizeTxHash, requireTxHash } from '../validation.js';
import { checkTarget, guardedLookup, type TargetPolicy } from './target.js';

/** What a subscription's stream needs of its charge (see subscription-charge.ts). */
export interface HeldCharge {
  delivered(): Promise<void>;
  end(): Promise<void>;
}

/** How a transport (ws.ts) and a subscription's stream talk: set up per subscription. */
export interface SubscriptionTransport {
  /** Credits a start costs: the price of the status call it stands in for. */
  price: number;
  /** Set by the stream; the transport calls it each time one of its events was written to the socket. */
  onDelivered?: () => void;
}

/** Where the transport puts a subscription's `SubscriptionTransport` in its request context's memo. */
export const SUBSCRIPTION_TRANSPORT = 'bridge.subscriptionTransport';

export interface PushOptions extends TargetPolicy {
  followIntervalMs: number;
  retryBaseMs: number;
  timeoutMs: number;
  /** Open subscriptions per partner, across processes. */
  maxSubscriptions: number;
  /** Transfers followed at once per partner, across processes. */
  maxFollows: number;
  /** Finished or abandoned follows (and finished deliveries) are deleted this long after they began. */
  followRetentionHours: number;
  /** Deliveries in flight in this process; at most one per webhook. */
  maxDeliveriesInFlight: number;
}

/** One status change of one transfer, as webhooks and subscriptions receive it. */
export interface StatusChange {
  txHash: string;
  /** 1 for the first status seen, then one more per change. */
  sequence: number;
  occurredAt: string;
  transfer: BridgeStatus;
}

/** What a webhook's receiver answered to a test event. */
export interface WebhookTestResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  sentAt: string;
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
/** Due follows of one partner looked at per round: a partner's many follows never starve another's few. */
const FOLLOWS_PER_PARTNER = 5;
/** A subscription row lives this long unless its process renews it (every third of it). */
const SUBSCRIPTION_LEASE_MS = 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Tries at taking a free slot when other processes take the same ones at the same moment. */
const SLOT_TRIES = 5;

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());
const keyOf = (s: BridgeStatus) => `${s.status}:${s.substatus ?? ''}`;
const isFinal = (s: BridgeStatus) => s.status === 'DONE' || s.status === 'FAILED';
const finalKey = (key: string | null) => key !== null && (key.startsWith('DONE:') || key.startsWith('FAILED:'));
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

// `setting`, not `limit`: a `limit` extension marks a GraphQL limit refusal (BAD_USER_INPUT, see limits.ts).
const tooMany = (message: string, setting: string) => new AppError(ErrorCode.RATE_LIMITED, message, { setting });

/** The follow (a bridge_follow row named `f`) is needed by no webhook of its partner and no open subscription. */
const unneeded = (f: string) =>
  `not exists (select 1 from bridge_webhook w where w.partner_id = ${f}.partner_id and w.deleted_at is null)
   and not exists (select 1 from bridge_subscription s
                    where s.partner_id = ${f}.partner_id and s.tx_hash = ${f}.tx_hash and s.expires_at >= ?)`;

/** `x-cipgate-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs. */
export function signature(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * One subscription's changes. Not an async generator: `return()` ends it at once, whether or not a
 * change is awaited (a generator parked on an `await` runs `return()` only after its next event, which
 * a transfer that does not move never sends), and drops everything it holds.
 */
export class StatusStream implements AsyncIterableIterator<StatusChange> {
  private readonly queue: StatusChange[] = [];
  private readonly waiting: ((result: IteratorResult<StatusChange>) => void)[] = [];
  private seen = 0;
  private finalSeen = false;
  private ended = false;

  constructor(private readonly onEnd: (stream: StatusStream) => void) {}

  get closed(): boolean {
    return this.ended;
  }

  /** The sequence of the latest change taken. */
  get seenUpTo(): number {
    return this.seen;
  }

  /** A change to send, unless an equal or later one was: changes only move forward. */
  push(change: StatusChange): void {
    if (this.ended || this.finalSeen || change.sequence <= this.seen) return;
    this.seen = change.sequence;
    if (isFinal(change.transfer)) this.finalSeen = true;
    const waiter = this.waiting.shift();
    if (waiter) waiter({ value: change, done: false });
    else this.queue.push(change);
  }

  next(): Promise<IteratorResult<StatusChange>> {
    const change = this.queue.shift();
    if (change) return Promise.resolve({ value: change, done: false });
    // The final change was taken: the subscription is complete.
    if (this.ended || this.finalSeen) {
      this.end();
      return Promise.resolve(DONE);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  return(): Promise<IteratorResult<StatusChange>> {
    this.end();
    return Promise.resolve(DONE);
  }

  throw(err?: unknown): Promise<IteratorResult<StatusChange>> {
    this.end();
    return Promise.reject(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    for (const waiter of this.waiting.splice(0)) waiter(DONE);
    this.onEnd(this);
  }
}

export class WebhookService {
  /** Open subscriptions of this process by `<partner>:<txHash>`. */
  private readonly topics = new Map<string, Set<StatusStream>>();
  private timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  /** Marks this process's subscription rows, renewed together while it runs. */
  private readonly owner = randomUUID();
  /** Webhooks with a delivery in flight from this process. */
  private readonly sending = new Set<string>();
  /** Rows of this process's open subscriptions, renewed while open. */
  private readonly openSlots = new Set<string>();
  /** Rows of ended subscriptions still to delete, with their transfer. */
  private readonly freeing = new Map<string, { partnerId: string; txHash: string }>();
  private freeingRun: Promise<void> | undefined;
  /** Slot taking per partner, one at a time in this process (processes race only each other). */
  private readonly slotQueues = new Map<string, Promise<unknown>>();
  private stopped = false;
  private dispatching = false;
  private dispatchAgain = false;
  private polling = false;
  private refreshing = false;

  constructor(
    private readonly db: Database,
    private readonly bridge: BridgeService,
    private readonly options: PushOptions,
    private readonly log: Logger,
  ) {}

  private readonly onAnswered = (event: StatusAnswered) => {
    this.track(this.observe(event));
  };

  start(): void {
    this.bridge.statusAnswered.on('answered', this.onAnswered);
    const tick = Math.min(this.options.followIntervalMs, this.options.retryBaseMs, 1000);
    const sweep = () => {
      if (!this.stopped) this.track(this.sweep());
    };
    this.timers = [
      setInterval(() => this.kick(), tick),
      setInterval(() => this.track(this.renewSubscriptions()), SUBSCRIPTION_LEASE_MS / 3),
      setInterval(sweep, SWEEP_EVERY_MS),
    ];
    for (const timer of this.timers) timer.unref();
    sweep();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.bridge.statusAnswered.off('answered', this.onAnswered);
    for (const timer of this.timers) clearInterval(timer);
    for (const streams of [...this.topics.values()]) for (const stream of [...streams]) stream.end();
    await Promise.allSettled([...this.running]);
    await this.db
      .run('delete from bridge_subscription where owner = ?', [this.owner])
      .catch((err) => this.log.warn({ err }, 'could not delete the subscription rows of this process'));
  }

  /** Open subscriptions of this process and the change listeners they hold (one each). */
  pushStats(): { listeners: number; transfers: number } {
    let listeners = 0;
    for (const streams of this.topics.values()) listeners += streams.size;
    return { listeners, transfers: this.topics.size };
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((err) => this.log.warn({ err }, 'bridge status push failed'));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Runs the follower and the deliverer once, unless a previous pass is still going. */
  private kick(): void {
    if (this.stopped) return;
    if (!this.polling) {
      this.polling = true;
      this.track(this.pollDue().finally(() => (this.polling = false)));
    }
    if (!this.refreshing && this.topics.size > 0) {
      this.refreshing = true;
      this.track(this.refreshWatched().finally(() => (this.refreshing = false)));
    }
    this.deliverSoon();
  }

  // ---- webhooks ----

  async register(partnerId: string, rawUrl: string): Promise<WebhookInfo & { secret: string }> {
    const url = await checkTarget(rawUrl, this.options);
    const id = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const createdAt = new Date();
    const created = await this.db.transaction(async (tx) => {
      // Concurrent registrations of one partner count one after another: PostgreSQL locks the partner's row,
      // SQLite's transaction holds the write lock. Without it each could count 9 and all insert.
      if (this.db.dialect === 'postgresql')
        await tx.query('select id from partner where id = ? for update', [partnerId]);
      const [count] = await tx.query<{ n: number | string }>(
        'select count(*) as n from bridge_webhook where partner_id = ? and deleted_at is null',
        [partnerId],
      );
      if (Number(count?.n ?? 0) >= MAX_WEBHOOKS) return false;
      await tx.run('insert into bridge_webhook (id, partner_id, url, secret, created_at) values (?, ?, ?, ?, ?)', [
        id,
        partnerId,
        url.href,
        secret,
        createdAt,
      ]);
      return true;
    });
    if (!created) throw badInput(`At most ${MAX_WEBHOOKS} webhooks per partner`);
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
    // The stored id, not the caller's spelling: SQLite compares text case-sensitively.
    await this.db.run('update bridge_webhook set deleted_at = ? where id = ? and deleted_at is null', [
      new Date(),
      webhook.id,
    ]);
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

  /**
   * Sends one signed `test` event to a webhook now, signed and delivered as a status change is, once and
   * outside the delivery record: what a receiver answered, to check its URL and its signature check.
   */
  async sendTest(partnerId: string, id: string): Promise<WebhookTestResult> {
    const webhook = await this.own(partnerId, id);
    const [row] = await this.db.query<{ secret: string }>('select secret from bridge_webhook where id = ?', [
      webhook.id,
    ]);
    const sentAt = new Date().toISOString();
    const payload = JSON.stringify({ type: 'test', webhookId: webhook.id, sentAt });
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const url = await checkTarget(webhook.url, this.options);
      const statusCode = await this.post(url, payload, {
        'content-type': 'application/json',
        'user-agent': 'cipgate-webhooks/1',
        'x-cipgate-delivery': `test-${randomUUID()}`,
        'x-cipgate-signature': signature(row?.secret ?? '', timestamp, payload),
      });
      const delivered = statusCode >= 200 && statusCode <= 299;
      return { delivered, statusCode, error: delivered ? null : `answered HTTP ${statusCode}`, sentAt };
    } catch (err) {
      return { delivered: false, statusCode: null, error: err instanceof Error ? err.message : String(err), sentAt };
    }
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

  /** Transfers followed for the partner right now, in every process. */
  private async activeFollows(db: Pick<Database, 'query'>, partnerId: string): Promise<number> {
    const [row] = await db.query<{ n: number | string }>(
      'select count(*) as n from bridge_follow where partner_id = ? and next_check_at is not null',
      [partnerId],
    );
    return Number(row?.n ?? 0);
  }

  private followCapError(): AppError {
    const max = this.options.maxFollows;
    return tooMany(
      `At most ${max} transfers are followed at once per partner (BRIDGE_MAX_FOLLOWS); close subscriptions or wait for transfers to finish`,
      'BRIDGE_MAX_FOLLOWS',
    );
  }

  /**
   * Follows a transfer for a partner from now on (a subscription asks for it); looks at it at once.
   * Refused (RATE_LIMITED) when the partner already has `maxFollows` transfers followed.
   */
  async follow(partnerId: string, sandbox: boolean, rawTxHash: string): Promise<{ txHash: string }> {
    requireTxHash(rawTxHash);
    const txHash = normalizeTxHash(rawTxHash);
    const now = new Date();
    const [existing] = await this.db.query<{ next_check_at: unknown; last_key: string | null }>(
      'select next_check_at, last_key from bridge_follow where partner_id = ? and tx_hash = ?',
      [partnerId, txHash],
    );
    const active = existing && existing.next_check_at != null;
    const rearm = existing && !active && !finalKey(existing.last_key);
    if ((!existing || rearm) && (await this.activeFollows(this.db, partnerId)) >= this.options.maxFollows)
      throw this.followCapError();
    if (!existing)
      await this.db.run(
        `insert into bridge_follow (partner_id, tx_hash, sandbox, seq, checks, next_check_at, created_at)
         values (?, ?, ?, 0, 0, ?, ?) on conflict (partner_id, tx_hash) do nothing`,
        [partnerId, txHash, sandbox, now, now],
      );
    // Following again after it was stopped (but not after it finished): look once more.
    else if (rearm)
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

  /** Stops following the partner's transfer if no subscription and no webhook needs it any more. */
  private async stopIfUnneeded(partnerId: string, txHash: string): Promise<void> {
    await this.db.run(
      `update bridge_follow set next_check_at = null
        where partner_id = ? and tx_hash = ? and next_check_at is not null and ${unneeded('bridge_follow')}`,
      [partnerId, txHash, new Date()],
    );
  }

  // ---- subscriptions ----

  /**
   * The partner's changes of one transfer from now on: the last one already seen first (a subscriber
   * learns where the transfer stands), then each new one, until the transfer is final. The start takes
   * the charge (`open` holds its price, refusals are free), one of the partner's subscription slots and a
   * follow, each refused when over its cap; ending the stream gives all of them back at once.
   */
  async subscribe(
    partner: { id: string; sandbox: boolean },
    rawTxHash: string,
    start: { open(): Promise<HeldCharge>; transport: SubscriptionTransport },
  ): Promise<StatusStream> {
    // Checked before anything is held, so a bad hash is the subscription's free error, not its first event.
    requireTxHash(rawTxHash);
    const txHash = normalizeTxHash(rawTxHash);
    if (this.stopped) throw new AppError(ErrorCode.UPSTREAM_UNAVAILABLE, 'The server is shutting down; reconnect');
    const charge = await start.open();
    let slot: string | undefined;
    const topic = `${partner.id}:${txHash}`;
    let stream: StatusStream | undefined;
    try {
      slot = await this.takeSlot(partner.id, txHash);
      this.openSlots.add(slot);
      const taken = slot;
      stream = new StatusStream((ended) => {
        const streams = this.topics.get(topic);
        streams?.delete(ended);
        if (streams?.size === 0) this.topics.delete(topic);
        start.transport.onDelivered = undefined;
        this.track(this.released(partner.id, txHash, taken, charge));
      });
      const streams = this.topics.get(topic) ?? new Set();
      this.topics.set(topic, streams);
      // Listening before the follow starts and before reading the last change: nothing falls in between.
      streams.add(stream);
      await this.follow(partner.id, partner.sandbox, txHash);
      const last = await this.lastChange(partner.id, txHash);
      if (last) stream.push(last);
    } catch (err) {
      if (stream) stream.end();
      else this.track(this.released(partner.id, txHash, slot, charge));
      throw err;
    }
    const delivered = () => {
      start.transport.onDelivered = undefined;
      this.track(charge.delivered());
    };
    start.transport.onDelivered = delivered;
    return stream;
  }

  /** What an ended subscription held, given back: its charge (released unless charged), slot and follow. */
  private async released(partnerId: string, txHash: string, slot: string | undefined, charge: HeldCharge) {
    if (slot) {
      this.openSlots.delete(slot);
      this.freeing.set(slot, { partnerId, txHash });
      this.freeingRun ??= this.freeSlots().finally(() => {
        this.freeingRun = undefined;
      });
      this.track(this.freeingRun);
    }
    await charge.end();
  }

  /**
   * Deletes the rows of ended subscriptions, many at once (a closed socket may end a thousand), then stops
   * the follows they leave unneeded. Retried while the database refuses; a row it never manages to delete
   * is no longer renewed, so it expires.
   */
  private async freeSlots(): Promise<void> {
    for (let failures = 0; this.freeing.size > 0 && failures < 6; ) {
      const batch = [...this.freeing].slice(0, 500);
      try {
        await this.db.run(
          `delete from bridge_subscription where id in (${batch.map(() => '?').join(', ')})`,
          batch.map(([id]) => id),
        );
        for (const [id] of batch) this.freeing.delete(id);
        const topics = new Map(batch.map(([, t]) => [`${t.partnerId}:${t.txHash}`, t]));
        for (const { partnerId, txHash } of topics.values()) await this.stopIfUnneeded(partnerId, txHash);
        failures = 0;
      } catch (err) {
        failures += 1;
        this.log.warn({ err, failures }, 'could not free ended subscriptions; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** failures)));
      }
    }
    this.freeing.clear();
  }

  /**
   * One of the partner's `maxSubscriptions` slots, as a row of bridge_subscription (its id), or a
   * RATE_LIMITED refusal. The unique (partner, slot) index makes the cap hold across processes; rows of
   * processes that died expire.
   */
  private takeSlot(partnerId: string, txHash: string): Promise<string> {
    const previous = this.slotQueues.get(partnerId) ?? Promise.resolve();
    const taking = previous.catch(() => undefined).then(() => this.takeSlotNow(partnerId, txHash));
    const queued = taking.catch(() => undefined);
    this.slotQueues.set(partnerId, queued);
    void queued.finally(() => {
      if (this.slotQueues.get(partnerId) === queued) this.slotQueues.delete(partnerId);
    });
    return taking;
  }

  private async takeSlotNow(partnerId: string, txHash: string): Promise<string> {
    const max = this.options.maxSubscriptions;
    const count = async () => {
      const [row] = await this.db.query<{ n: number | string }>(
        'select count(*) as n from bridge_subscription where partner_id = ?',
        [partnerId],
      );
      return Number(row?.n ?? 0);
    };
    const insert = async (slot: number) => {
      const id = randomUUID();
      const now = new Date();
      const inserted = await this.db.run(
        `insert into bridge_subscription (id, partner_id, slot, tx_hash, owner, expires_at, created_at)
         values (?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
        [id, partnerId, slot, txHash, this.owner, new Date(now.getTime() + SUBSCRIPTION_LEASE_MS), now],
      );
      return inserted ? id : undefined;
    };
    let open = await count();
    if (open >= max) {
      // Full, unless some rows are of processes that died.
      await this.db.run('delete from bridge_subscription where partner_id = ? and expires_at < ?', [
        partnerId,
        new Date(),
      ]);
      open = await count();
    }
    if (open < max) {
      // A random slot is usually free (and rarely the one another process picks at the same moment).
      for (let attempt = 0; attempt < SLOT_TRIES; attempt++) {
        const id = await insert(Math.floor(Math.random() * max));
        if (id) return id;
      }
      // Crowded: one of the slots seen free.
      const rows = await this.db.query<{ slot: number | string }>(
        'select slot from bridge_subscription where partner_id = ?',
        [partnerId],
      );
      const taken = new Set(rows.map((r) => Number(r.slot)));
      const free: number[] = [];
      for (let slot = 0; slot < max && rows.length < max; slot++) if (!taken.has(slot)) free.push(slot);
      if (free.length) {
        const id = await insert(free[Math.floor(Math.random() * free.length)] as number);
        if (id) return id;
      }
    }
    throw tooMany(
      `At most ${max} subscriptions may be open at once per partner (BRIDGE_MAX_SUBSCRIPTIONS); complete one first`,
      'BRIDGE_MAX_SUBSCRIPTIONS',
    );
  }

  /** Keeps this process's subscription rows alive while they are open (only those: an ended one expires). */
  private async renewSubscriptions(): Promise<void> {
    if (this.stopped || this.openSlots.size === 0) return;
    const ids = [...this.openSlots];
    const expiresAt = new Date(Date.now() + SUBSCRIPTION_LEASE_MS);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await this.db.run(
        `update bridge_subscription set expires_at = ? where id in (${chunk.map(() => '?').join(', ')})`,
        [expiresAt, ...chunk],
      );
    }
  }

  private publish(partnerId: string, change: StatusChange): void {
    const streams = this.topics.get(`${partnerId}:${change.txHash}`);
    if (streams) for (const stream of [...streams]) stream.push(change);
  }

  /**
   * Changes another process numbered (whichever process looks at a transfer announces its changes): the
   * latest of each transfer this process's subscriptions watch, read from the follow rows every tick.
   * Each stream takes a change only once, whoever told it first.
   */
  private async refreshWatched(): Promise<void> {
    if (this.topics.size === 0) return;
    const rows = await this.db.query<{
      partner_id: string;
      tx_hash: string;
      seq: number | string;
      last_answer: string;
    }>(
      `select f.partner_id, f.tx_hash, f.seq, f.last_answer from bridge_follow f
        where f.seq > 0 and f.last_answer is not null
          and exists (select 1 from bridge_subscription s
                       where s.owner = ? and s.partner_id = f.partner_id and s.tx_hash = f.tx_hash)`,
      [this.owner],
    );
    for (const row of rows) {
      const streams = this.topics.get(`${row.partner_id}:${row.tx_hash}`);
      const seq = Number(row.seq);
      if (!streams || [...streams].every((stream) => stream.seenUpTo >= seq)) continue;
      const change = JSON.parse(row.last_answer) as StatusChange;
      for (const stream of [...streams]) stream.push(change);
    }
  }

  /**
   * Housekeeping, in every process (each statement is safe to run twice): subscription rows of processes
   * that died, then what is past the retention: finished deliveries, and follows no longer looked at whose
   * deliveries are all gone (a follow deleted while its deliveries remain would number its next change
   * like one already delivered).
   */
  async sweep(now = new Date()): Promise<{ subscriptions: number; deliveries: number; follows: number }> {
    const cutoff = new Date(now.getTime() - this.options.followRetentionHours * 3600_000);
    const subscriptions = await this.db.run('delete from bridge_subscription where expires_at < ?', [now]);
    const deliveries = await this.db.run(
      `delete from bridge_webhook_delivery where state <> 'pending' and created_at < ?`,
      [cutoff],
    );
    const follows = await this.db.run(
      `delete from bridge_follow
        where next_check_at is null and created_at < ?
          and not exists (select 1 from bridge_webhook_delivery d join bridge_webhook w on w.id = d.webhook_id
                           where w.partner_id = bridge_follow.partner_id and d.tx_hash = bridge_follow.tx_hash)`,
      [cutoff],
    );
    return { subscriptions, deliveries, follows };
  }

  /** A status answer for a partner: the change, if it is one, numbered once and pushed. */
  async observe({ txHash: rawTxHash, bridge, caller, answer }: StatusAnswered): Promise<void> {
    const { partnerId, sandbox } = caller;
    if (!partnerId || this.stopped) return;
    const txHash = normalizeTxHash(rawTxHash);
    const key = keyOf(answer);
    const now = new Date();
    const change = await this.db.transaction(async (tx) => {
      const [follow] = await tx.query<{ seq: number | string; last_key: string | null; next_check_at: unknown }>(
        'select seq, last_key, next_check_at from bridge_follow where partner_id = ? and tx_hash = ?',
        [partnerId, txHash],
      );
      if (!follow || (follow.next_check_at == null && !isFinal(answer) && !finalKey(follow.last_key))) {
        // Only a partner with a webhook has transfers followed without subscribing.
        const hooks = await tx.query('select id from bridge_webhook where partner_id = ? and deleted_at is null', [
          partnerId,
        ]);
        if (hooks.length === 0 && !follow) return undefined;
        if (hooks.length > 0) {
          if ((await this.activeFollows(tx, partnerId)) >= this.options.maxFollows) {
            this.log.debug({ partnerId, txHash }, 'not followed: the partner follows as many transfers as allowed');
            if (!follow) return undefined;
          } else if (!follow) {
            await tx.run(
              `insert into bridge_follow (partner_id, tx_hash, sandbox, bridge, seq, checks, next_check_at, created_at)
               values (?, ?, ?, ?, 0, 0, ?, ?) on conflict (partner_id, tx_hash) do nothing`,
              [partnerId, txHash, sandbox, bridge, now, now],
            );
          } else {
            // Stopped earlier (nobody needed it), needed again by a webhook: followed again.
            await tx.run(
              `update bridge_follow set next_check_at = ?, checks = 0, created_at = ?
                where partner_id = ? and tx_hash = ? and next_check_at is null`,
              [new Date(now.getTime() + this.options.followIntervalMs), now, partnerId, txHash],
            );
          }
        }
      }
      if (follow?.last_key === key) return undefined;
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
    this.publish(partnerId, change);
    this.deliverSoon();
  }

  /**
   * Looks at the followed transfers that are due, each claimed by one process (compare-and-set on
   * `checks`). Follows nobody needs any more stop first, without a look; then at most a few due follows
   * of each partner are taken per round, earliest due first.
   */
  private async pollDue(): Promise<void> {
    const now = new Date();
    await this.db.run(
      `update bridge_follow set next_check_at = null
        where next_check_at is not null and next_check_at <= ? and ${unneeded('bridge_follow')}`,
      [now, now],
    );
    const due = await this.db.query<{
      partner_id: string;
      tx_hash: string;
      sandbox: unknown;
      bridge: string | null;
      checks: number | string;
      created_at: unknown;
    }>(
      `select partner_id, tx_hash, sandbox, bridge, checks, created_at from (
         select partner_id, tx_hash, sandbox, bridge, checks, created_at, next_check_at,
                row_number() over (partition by partner_id order by next_check_at, tx_hash) as turn
           from bridge_follow where next_check_at is not null and next_check_at <= ?) due
        where turn <= ${FOLLOWS_PER_PARTNER} order by turn, next_check_at limit ${BATCH}`,
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

  /** Starts the deliveries that are due, unless a look for them is already running (then once more after). */
  private deliverSoon(): void {
    if (this.stopped) return;
    if (this.dispatching) {
      this.dispatchAgain = true;
      return;
    }
    this.dispatching = true;
    this.track(
      this.dispatch().finally(() => {
        this.dispatching = false;
        if (this.dispatchAgain) {
          this.dispatchAgain = false;
          this.deliverSoon();
        }
      }),
    );
  }

  /**
   * Starts each due delivery on its own: the earliest due of each webhook that has none in flight here,
   * up to `maxDeliveriesInFlight`. Nothing waits for a batch, so a receiver that hangs holds back only
   * its own webhook's next delivery, for at most one delivery timeout.
   */
  private async dispatch(): Promise<void> {
    const room = this.options.maxDeliveriesInFlight - this.sending.size;
    if (room <= 0 || this.stopped) return;
    const busy = [...this.sending];
    const now = new Date();
    // A transfer's changes go out in order: nothing overtakes an earlier change still pending.
    const due = await this.db.query<{
      id: string;
      webhook_id: string;
      payload: string;
      attempts: number | string;
      url: string;
      secret: string;
    }>(
      `select id, webhook_id, payload, attempts, url, secret from (
         select d.id, d.webhook_id, d.payload, d.attempts, d.next_attempt_at, w.url, w.secret,
                row_number() over (partition by d.webhook_id order by d.next_attempt_at, d.created_at, d.seq) as turn
           from bridge_webhook_delivery d join bridge_webhook w on w.id = d.webhook_id
          where d.state = 'pending' and d.next_attempt_at <= ? and w.deleted_at is null
            ${busy.length ? `and d.webhook_id not in (${busy.map(() => '?').join(', ')})` : ''}
            and not exists (select 1 from bridge_webhook_delivery e
                             where e.webhook_id = d.webhook_id and e.tx_hash = d.tx_hash and e.seq < d.seq and e.state = 'pending')
       ) due where turn = 1 order by next_attempt_at ${limitClause(room)}`,
      [now, ...busy],
    );
    for (const d of due) {
      if (this.stopped) return;
      this.sending.add(d.webhook_id);
      this.track(
        this.attempt(d).finally(() => {
          this.sending.delete(d.webhook_id);
          this.deliverSoon();
        }),
      );
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
