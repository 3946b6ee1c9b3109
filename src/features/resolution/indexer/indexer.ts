import type { CommittedTransactionResponse, Event } from '@aptos-labs/ts-sdk';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../platform/db/orm.js';
import { unwrapOption } from '../../../platform/upstream/aptos/index.js';
import { normalizeMoveAddress } from '../registry/address.js';
import { clearChainTarget, setChainExpiry, setChainPrimary, setChainTarget } from '../registry/chain-writes.js';
import { InvalidNameError, normalizeMnsName } from '../registry/name.js';
import type { MnsNetwork } from '../registry/networks.js';
import type { ChainReader } from '../sources/chain/source.js';
import { type IndexerCursor, lagOf, readCursor, writeCursor } from './cursor.js';

/**
 * The events the indexer follows, as Aptos Names declares them (aptos-labs/aptos-names-contracts,
 * core_v2/sources/v2_1_domains.move) and Snowball documents for `movement_names` (SetReverseLookupEvent
 * with account_addr, prev_/curr_domain_name, _subdomain_name, _expiration_time_secs and a
 * _domain_suffix):
 *   RegisterNameEvent { domain_name, subdomain_name: Option<String>, registration_fee_octas, expiration_time_secs }
 *   SetTargetAddressEvent { domain_name, subdomain_name, expiration_time_secs, new_address: Option<address> }
 *   RenewNameEvent { domain_name, subdomain_name, renewal_fee_octas, expiration_time_secs,
 *                    target_address: Option<address>, is_primary_name: bool }
 *   SetReverseLookupEvent { account_addr, prev_*, curr_domain_name: Option<String>, curr_subdomain_name, … }
 * A registration resets the name's target (register_name_internal sets it to none) and the router then
 * sets it, with a SetTargetAddressEvent carrying the expiry; a transfer is seen through the target and
 * reverse-lookup events it causes.
 */
const FOLLOWED = new Set(['RegisterNameEvent', 'SetTargetAddressEvent', 'RenewNameEvent', 'SetReverseLookupEvent']);
const EVENT_TYPE = /^(0x[0-9a-fA-F]{1,64})::([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)$/;

type Data = Record<string, unknown>;

export interface IndexerOptions {
  moduleAddress: string;
  /** Transactions per fullnode page (the Aptos REST API serves at most 100). */
  pageSize: number;
  /** Where to start on a network never indexed before (e.g. the module's publication). */
  startVersion: bigint;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>;
  now?: () => Date;
}

export interface StepResult {
  network: MnsNetwork;
  fromVersion: bigint;
  nextVersion: bigint;
  ledgerVersion: bigint;
  events: number;
  caughtUp: boolean;
}

const secs = (v: unknown): Date | null =>
  typeof v === 'string' && /^\d+$/.test(v)
    ? new Date(Number(v) * 1000)
    : typeof v === 'number'
      ? new Date(v * 1000)
      : null;

/** A `String` or `Option<String>` field. */
const text = (v: unknown): string | null => (typeof v === 'string' ? v : unwrapOption(v as never));

/**
 * The full `.snow` name of an event's (domain, subdomain[, suffix]); null when it is not a `.snow`
 * name this service serves, or not a valid one.
 */
function eventName(data: Data, prefix = ''): string | null {
  const domain = text(data[`${prefix}domain_name`]);
  if (domain === null || domain === '') return null;
  const suffix = text(data[`${prefix}domain_suffix`]);
  if (suffix !== null && suffix.replace(/^\./, '').toLowerCase() !== 'snow') return null;
  const sub = text(data[`${prefix}subdomain_name`]);
  try {
    return normalizeMnsName(sub ? `${sub}.${domain}` : domain);
  } catch (err) {
    if (err instanceof InvalidNameError) return null;
    throw err;
  }
}

/**
 * Follows the MNS module's events on every configured network from the fullnode's transaction pages,
 * keeping the registry current. Each page's registry writes and the cursor past it commit in one
 * transaction, so a restart resumes after the last page written, and a page is never half applied.
 */
export class MnsIndexer {
  private readonly moduleKey: string;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Pick<Database, 'query' | 'transaction'>,
    private readonly reader: ChainReader,
    private readonly options: IndexerOptions,
  ) {
    this.moduleKey = normalizeMoveAddress(options.moduleAddress) ?? options.moduleAddress;
    this.now = options.now ?? (() => new Date());
  }

  /** Indexes one page of one network. */
  async step(network: MnsNetwork): Promise<StepResult> {
    const node = this.reader.fullnode(network);
    if (!node) throw new Error(`no fullnode configured for move-mvmt:${network}`);
    const ledger = await node.ledgerInfo();
    const ledgerVersion = BigInt(ledger.ledger_version);
    const ledgerTimestamp = new Date(Number(BigInt(ledger.ledger_timestamp) / 1000n));
    const stored = await readCursor(this.db, network);
    let from = stored?.nextVersion ?? this.options.startVersion;
    const oldest = BigInt(ledger.oldest_ledger_version);
    if (from < oldest) {
      // A pruned fullnode no longer serves those versions: what happened in them cannot be read here.
      this.options.log.warn(
        { network, fromVersion: from.toString(), oldestVersion: oldest.toString() },
        'mns indexer: fullnode has pruned versions not yet indexed; skipping to its oldest version',
      );
      from = oldest;
    }
    const cursor: IndexerCursor = {
      network,
      nextVersion: from,
      ledgerVersion,
      ledgerTimestamp,
      indexedTimestamp: null,
      updatedAt: this.now(),
    };
    if (from > ledgerVersion) {
      await this.db.transaction((tx) => writeCursor(tx, cursor));
      return { network, fromVersion: from, nextVersion: from, ledgerVersion, events: 0, caughtUp: true };
    }
    const transactions = (await node.call(undefined, (aptos) =>
      aptos.getTransactions({ options: { offset: from, limit: this.options.pageSize } }),
    )) as CommittedTransactionResponse[];
    let events = 0;
    await this.db.transaction(async (tx) => {
      for (const t of transactions) {
        const version = BigInt(t.version);
        if (version < from) continue;
        events += await this.apply(tx, network, t);
        cursor.nextVersion = version + 1n;
        if ('timestamp' in t) cursor.indexedTimestamp = new Date(Number(BigInt(t.timestamp) / 1000n));
      }
      await writeCursor(tx, cursor);
    });
    const result = {
      network,
      fromVersion: from,
      nextVersion: cursor.nextVersion,
      ledgerVersion,
      events,
      caughtUp: cursor.nextVersion > ledgerVersion || transactions.length === 0,
    };
    const lag = lagOf(cursor);
    this.options.log.info(
      {
        network,
        fromVersion: from.toString(),
        nextVersion: cursor.nextVersion.toString(),
        events,
        lagVersions: lag.lagVersions,
        lagSeconds: lag.lagSeconds,
      },
      'mns indexer progress',
    );
    return result;
  }

  /** Applies a transaction's MNS events in order; returns how many it applied. */
  private async apply(
    tx: Pick<Database, 'query' | 'run'>,
    network: MnsNetwork,
    t: CommittedTransactionResponse,
  ): Promise<number> {
    if (!('events' in t) || ('success' in t && t.success === false)) return 0;
    const sender = 'sender' in t ? t.sender : null;
    const at = 'timestamp' in t ? new Date(Number(BigInt(t.timestamp) / 1000n)) : null;
    const now = this.now();
    const registeredHere = new Set<string>();
    let applied = 0;
    for (const event of t.events as Event[]) {
      const m = EVENT_TYPE.exec(event.type);
      if (!m || normalizeMoveAddress(m[1] as string) !== this.moduleKey || !FOLLOWED.has(m[3] as string)) continue;
      const data = (event.data ?? {}) as Data;
      const kind = m[3] as string;
      if (kind === 'SetReverseLookupEvent') {
        const address = typeof data.account_addr === 'string' ? data.account_addr : null;
        if (!address) continue;
        const hasName = text(data.curr_domain_name) !== null;
        const name = hasName ? eventName(data, 'curr_') : null;
        // A primary name outside `.snow` still replaces the address's `.snow` one.
        await setChainPrimary(tx, { network, address, name, now });
        applied++;
        continue;
      }
      const name = eventName(data);
      if (name === null) continue;
      applied++;
      if (kind === 'RegisterNameEvent') {
        registeredHere.add(name);
        await clearChainTarget(tx, name, network);
      } else if (kind === 'SetTargetAddressEvent') {
        const target = unwrapOption(data.new_address as never);
        const expireAt = secs(data.expiration_time_secs);
        if (target === null || expireAt === null) await clearChainTarget(tx, name, network);
        else {
          const registeredAt = registeredHere.has(name) ? at : null;
          await setChainTarget(tx, { name, network, target, expireAt, registeredAt, now });
        }
      } else if (kind === 'RenewNameEvent') {
        const expireAt = secs(data.expiration_time_secs);
        if (expireAt === null) continue;
        if (!(await setChainExpiry(tx, { name, network, expireAt, now }))) {
          const target = unwrapOption(data.target_address as never);
          if (target !== null) {
            await setChainTarget(tx, { name, network, target, expireAt, registeredAt: null, now });
            if (data.is_primary_name === true) await setChainPrimary(tx, { network, address: target, name, now });
          }
        }
      }
    }
    if (applied && sender) this.options.log.debug({ network, version: t.version, sender, applied }, 'mns events');
    return applied;
  }

  /** Indexes every network until it reaches the chain head it saw. */
  async catchUp(maxPages = Number.POSITIVE_INFINITY): Promise<void> {
    for (const network of this.reader.networks) {
      for (let page = 0; page < maxPages && !this.stopped; page++) {
        if ((await this.step(network)).caughtUp) break;
      }
    }
  }

  /** Keeps indexing: catches up, waits `intervalMs`, again, until `stop()`. Failures are logged and retried. */
  start(intervalMs: number): void {
    const tick = async () => {
      try {
        await this.catchUp();
      } catch (err) {
        this.options.log.warn({ err }, 'mns indexer: pass failed; retrying');
      }
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = tick();
      }, intervalMs);
    };
    this.running = tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
