/**
 * Persistence of quoted routes and transfer statuses.
 *
 * How a status call finds the route it belongs to (the spec's status call carries only the source
 * transaction hash): a route is linked to a transaction hash either
 * - by the chain: the transaction found on the source chain's RPC is the quoted transaction itself
 *   (same chain id, sender, target, calldata and value — its fingerprint). Calldata of every
 *   provider's deposit carries quote-specific values (amounts, timestamps, LI.FI's transaction id),
 *   so equal fingerprints mean the partner sent exactly that route. Such links are global;
 * - or by the partner who asked for the quote, passing `routeId` to the status call. Such links are
 *   claims, not proofs, so they only steer that partner's own status calls, and a hash is linked to at
 *   most one route per partner: one partner's claim never stops another partner claiming the same hash.
 * Without either link, status falls back to the `bridge` hint, then to asking every provider.
 */
import { randomUUID } from 'node:crypto';
import * as Hash from 'ox/Hash';
import * as Hex from 'ox/Hex';
import type { Database } from '../../platform/db/orm.js';
import type { BridgeStatusValue, ProviderRoute, QuoteRequest } from './providers/types.js';

export interface StoredRoute {
  id: string;
  partnerId: string | null;
  provider: string;
  fromChain: string;
  toChain: string;
  route: ProviderRoute;
  tracking: Record<string, unknown> | undefined;
  txHash: string | null;
  linkedBy: 'chain' | 'partner' | null;
}

export interface RouteWithId extends Omit<ProviderRoute, 'tracking'> {
  id: string;
  expiresAt: number;
}

interface RouteRow {
  id: string;
  partner_id: string | null;
  provider: string;
  from_chain: string;
  to_chain: string;
  route: string;
  tracking: string | null;
  tx_hash: string | null;
  linked_by: 'chain' | 'partner' | null;
}

export interface TransferRecord {
  txHash: string;
  provider: string;
  status: BridgeStatusValue;
  substatus: string | null;
  answer: unknown;
  terminal: boolean;
}

/** What identifies an EVM transaction's effect: where, by whom, to what, with which input and value. */
export function evmTxFingerprint(tx: {
  chainId: number;
  from: string;
  to: string;
  data: string;
  value: string;
}): string {
  const canonical = [
    tx.chainId,
    tx.from.toLowerCase(),
    tx.to.toLowerCase(),
    tx.data.toLowerCase(),
    BigInt(tx.value).toString(),
  ];
  return Hash.keccak256(Hex.fromString(canonical.join('|')));
}

function fingerprintOf(route: ProviderRoute): string | null {
  if (!route.fromChain.startsWith('eip155:')) return null;
  try {
    return evmTxFingerprint(route.transactionData);
  } catch {
    return null;
  }
}

const toStored = (row: RouteRow): StoredRoute => ({
  id: row.id,
  partnerId: row.partner_id,
  provider: row.provider,
  fromChain: row.from_chain,
  toChain: row.to_chain,
  route: JSON.parse(row.route) as ProviderRoute,
  tracking: row.tracking ? (JSON.parse(row.tracking) as Record<string, unknown>) : undefined,
  txHash: row.tx_hash,
  linkedBy: row.linked_by,
});

const ROUTE_COLUMNS = 'id, partner_id, provider, from_chain, to_chain, route, tracking, tx_hash, linked_by';

export class BridgeStore {
  constructor(private readonly db: Database) {}

  /**
   * Stores the routes of one quote, each under a fresh id and valid for `ttlSeconds` (upstream
   * calldata carries quote timestamps and deadlines); `tracking` stays server-side.
   */
  async saveRoutes(
    partnerId: string | null,
    request: QuoteRequest,
    routes: ProviderRoute[],
    ttlSeconds: number,
  ): Promise<RouteWithId[]> {
    const now = new Date();
    const expiresAt = Math.floor(now.getTime() / 1000) + ttlSeconds;
    const requestJson = JSON.stringify({ ...request, fromAmount: request.fromAmount.toString() });
    const out: RouteWithId[] = [];
    await this.db.transaction(async (tx) => {
      for (const route of routes) {
        const id = randomUUID();
        const { tracking, ...rest } = route;
        const visible = { ...rest, expiresAt: Math.min(rest.expiresAt ?? expiresAt, expiresAt) };
        await tx.run(
          `insert into bridge_route (id, partner_id, provider, from_chain, to_chain, request, route, tracking, tx_fingerprint, created_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            partnerId,
            route.aggregator,
            route.fromChain,
            route.toChain,
            requestJson,
            JSON.stringify(visible),
            tracking ? JSON.stringify(tracking) : null,
            fingerprintOf(route),
            now,
          ],
        );
        out.push({ id, ...visible });
      }
    });
    return out;
  }

  async routeById(id: string): Promise<StoredRoute | undefined> {
    const [row] = await this.db.query<RouteRow>(`select ${ROUTE_COLUMNS} from bridge_route where id = ?`, [id]);
    return row && toStored(row);
  }

  /**
   * The route linked to a transaction, as far as `partnerId` may rely on the link: a chain-proven link
   * (anyone's) before the partner's own claim; other partners' claims are not seen.
   */
  async routeByTx(txHash: string, partnerId: string | null): Promise<StoredRoute | undefined> {
    const [row] = await this.db.query<RouteRow>(
      `select ${ROUTE_COLUMNS} from bridge_route
        where tx_hash = ? and (linked_by = 'chain' or partner_id = ?)
        order by case when linked_by = 'chain' then 0 else 1 end, case when partner_id = ? then 0 else 1 end,
          linked_at desc, id
        limit 1`,
      [txHash, partnerId, partnerId],
    );
    return row && toStored(row);
  }

  /** The newest route quoted with exactly this transaction that is not yet linked to another hash. */
  async routeByFingerprint(fingerprint: string, txHash: string): Promise<StoredRoute | undefined> {
    const [row] = await this.db.query<RouteRow>(
      `select ${ROUTE_COLUMNS} from bridge_route
       where tx_fingerprint = ? and (tx_hash is null or tx_hash = ? or linked_by = 'partner')
       order by created_at desc limit 1`,
      [fingerprint, txHash],
    );
    return row && toStored(row);
  }

  /**
   * Links a route to its source transaction. A chain-proven link replaces every claim on the same hash
   * (they are shown false); a claim never replaces a proof. Claims are per partner: another partner's
   * claim on the hash neither blocks this link nor is touched by a claim. Returns false when the hash is
   * already taken: proven for another route, or claimed by the same partner for another route.
   */
  async link(routeId: string, txHash: string, by: 'chain' | 'partner'): Promise<boolean> {
    const linked = this.db.transaction(async (tx) => {
      const holders = await tx.query<{ id: string; partner_id: string | null; linked_by: string }>(
        'select id, partner_id, linked_by from bridge_route where tx_hash = ? or id = ?',
        [txHash, routeId],
      );
      const route = holders.find((h) => h.id === routeId);
      if (!route) return false;
      const others = holders.filter((h) => h.id !== routeId);
      if (others.some((h) => h.linked_by === 'chain')) return false;
      const replaced =
        by === 'chain' ? others : others.filter((h) => h.partner_id === route.partner_id && h.partner_id !== null);
      if (by === 'partner' && replaced.length > 0) return false;
      for (const other of replaced) {
        await tx.run('update bridge_route set tx_hash = null, linked_by = null, linked_at = null where id = ?', [
          other.id,
        ]);
      }
      await tx.run('update bridge_route set tx_hash = ?, linked_by = ?, linked_at = ? where id = ?', [
        txHash,
        by,
        new Date(),
        routeId,
      ]);
      return true;
    });
    // Two status calls of one partner linking the same hash at once: the unique index lets one win.
    return linked.catch((err: unknown) => {
      if (isUniqueViolation(err)) return false;
      throw err;
    });
  }

  /** A cached terminal answer for the transaction by `provider`, or by any of the providers listed. */
  async terminal(txHash: string, provider: string | readonly string[]): Promise<TransferRecord | undefined> {
    const providers = typeof provider === 'string' ? [provider] : provider;
    if (providers.length === 0) return undefined;
    const rows = await this.db.query<{
      provider: string;
      status: BridgeStatusValue;
      substatus: string | null;
      answer: string;
    }>(
      `select provider, status, substatus, answer from bridge_transfer
        where tx_hash = ? and terminal = ? and provider in (${providers.map(() => '?').join(', ')})
       order by updated_at desc`,
      [txHash, true, ...providers],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      txHash,
      provider: row.provider,
      status: row.status,
      substatus: row.substatus,
      answer: JSON.parse(row.answer),
      terminal: true,
    };
  }

  /**
   * Stores the latest answer for (transaction, provider) and appends to the history when the status
   * or substatus changed. A terminal answer is never overwritten by a later non-terminal one.
   */
  async record(
    txHash: string,
    provider: string,
    routeId: string | null,
    status: BridgeStatusValue,
    substatus: string | null,
    message: string,
    answer: unknown,
  ): Promise<void> {
    const now = new Date();
    const terminal = status === 'DONE' || status === 'FAILED';
    await this.db.transaction(async (tx) => {
      const [current] = await tx.query<{ status: string; substatus: string | null; terminal: unknown }>(
        'select status, substatus, terminal from bridge_transfer where tx_hash = ? and provider = ?',
        [txHash, provider],
      );
      if (current && isTrue(current.terminal)) return;
      // A concurrent first call for the same transfer may insert between our select and insert: it has
      // recorded the same observation, so ours adds nothing.
      const inserted =
        !current &&
        (await tx.run(
          `insert into bridge_transfer (tx_hash, provider, route_id, status, substatus, answer, terminal, first_seen_at, updated_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (tx_hash, provider) do nothing`,
          [txHash, provider, routeId, status, substatus, JSON.stringify(answer), terminal, now, now],
        )) > 0;
      if (!current && !inserted) return;
      if (current) {
        // The terminal guard is repeated here because a concurrent call may have finished the transfer.
        const updated = await tx.run(
          `update bridge_transfer set route_id = coalesce(?, route_id), status = ?, substatus = ?, answer = ?, terminal = ?, updated_at = ?
           where tx_hash = ? and provider = ? and terminal = ?`,
          [routeId, status, substatus, JSON.stringify(answer), terminal, now, txHash, provider, false],
        );
        if (updated === 0) return;
      }
      if (!current || current.status !== status || (current.substatus ?? null) !== substatus) {
        await tx.run(
          'insert into bridge_status_history (tx_hash, provider, status, substatus, message, recorded_at) values (?, ?, ?, ?, ?, ?)',
          [txHash, provider, status, substatus, message, now],
        );
      }
    });
  }
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '23505' || /unique constraint/i.test(String(e?.message ?? ''));
}

/** SQLite gives booleans back as 0/1, PostgreSQL as true/false. */
const isTrue = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
