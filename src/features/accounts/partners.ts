import { randomUUID } from 'node:crypto';
import { type InferEntity, raw } from '@mikro-orm/core';
import type { SqlEntityManager as EntityManager } from '@mikro-orm/sql';
import { ApiKey, LedgerEntry, Partner } from '../../platform/db/entities/index.js';
import type { Database } from '../../platform/db/orm.js';
import { AppError } from '../../platform/errors.js';
import { type IssuedKey, issueApiKey, UUID } from './api-keys.js';
import type { PartnerStats } from './partner-stats.js';

export interface PartnerSummary extends PartnerStats {
  id: string;
  creditReserved: number;
  sandbox: boolean;
  createdAt: string;
  activeKeys: number;
}

export class PartnerInputError extends AppError {
  override name = 'PartnerInputError';
  constructor(message: string) {
    super('BAD_USER_INPUT', message);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The most credits one grant may add: a ledger row's `credits` is a 32-bit integer on PostgreSQL (and
 * 64-bit on SQLite), so every grant is held to the smaller range and both databases accept the same ones.
 */
export const MAX_GRANT_CREDITS = 2_147_483_647;

/** A balance stays an exact JS number (balances are read as numbers, not bigints). */
const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

function checkGrant(credits: number, min: 0 | 1): void {
  if (!Number.isSafeInteger(credits) || credits < min || credits > MAX_GRANT_CREDITS)
    throw new PartnerInputError(`credits must be a whole number from ${min} to ${MAX_GRANT_CREDITS}`);
}

/** Creates a partner with an opening grant (a ledger row) and its first API key. */
export async function createPartner(
  db: Database,
  input: { name: string; email: string; credits: number; sandbox?: boolean },
): Promise<{ partner: PartnerSummary; key: IssuedKey }> {
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  if (!name) throw new PartnerInputError('name must not be empty');
  if (!EMAIL.test(email)) throw new PartnerInputError(`"${input.email}" is not an e-mail address`);
  checkGrant(input.credits, 0);
  const em = db.orm.em.fork();
  if (await em.count(Partner, { email })) throw new PartnerInputError(`a partner with e-mail ${email} already exists`);

  const id = randomUUID();
  await em.transactional(async (tx) => {
    tx.create(Partner, {
      id,
      name,
      email,
      creditBalance: 0,
      creditUsage: 0,
      creditReserved: 0,
      sandbox: input.sandbox ?? false,
      createdAt: new Date(),
    });
    await tx.flush();
    if (input.credits > 0) await grantWithin(tx, id, input.credits, 'partner:create');
  });
  const key = await issueApiKey(db, id, 'initial');
  const partner = await getPartner(db, id);
  if (!partner) throw new Error('partner vanished after creation');
  return { partner, key };
}

/** Adds to the balance in the database (never a read-modify-write of a loaded entity) and records the grant. */
async function grantWithin(em: EntityManager, partnerId: string, credits: number, operation: string): Promise<void> {
  const changed = await em.nativeUpdate(
    Partner,
    { id: partnerId, creditBalance: { $lte: MAX_BALANCE - credits } },
    { creditBalance: raw('credit_balance + ?', [credits]) },
  );
  if (changed !== 1) {
    if (await em.count(Partner, { id: partnerId }))
      throw new PartnerInputError(`the balance would exceed ${MAX_BALANCE} credits`);
    throw new PartnerInputError(`no partner with id ${partnerId}`);
  }
  em.create(LedgerEntry, {
    partner: partnerId,
    kind: 'grant',
    operation,
    credits,
    requestId: null,
    createdAt: new Date(),
  });
  await em.flush();
}

/** Adds credits to a partner's balance, recorded as a grant in the ledger. */
export async function grantCredits(db: Database, partnerId: string, credits: number): Promise<PartnerSummary> {
  checkGrant(credits, 1);
  if (!UUID.test(partnerId)) throw new PartnerInputError(`no partner with id ${partnerId}`);
  await db.orm.em.fork().transactional((tx) => grantWithin(tx, partnerId, credits, 'credits:grant'));
  const partner = await getPartner(db, partnerId);
  if (!partner) throw new PartnerInputError(`no partner with id ${partnerId}`);
  return partner;
}

type PartnerEntity = InferEntity<typeof Partner>;

function toSummary(partner: PartnerEntity, activeKeys: number): PartnerSummary {
  return {
    id: partner.id,
    name: partner.name,
    email: partner.email,
    creditBalance: partner.creditBalance,
    creditUsage: partner.creditUsage,
    creditReserved: partner.creditReserved,
    sandbox: partner.sandbox,
    createdAt: partner.createdAt.toISOString(),
    activeKeys,
  };
}

/** Active (unrevoked) keys per partner. */
async function activeKeyCounts(em: EntityManager, partnerIds: string[]): Promise<Map<string, number>> {
  const rows = await em
    .createQueryBuilder(ApiKey)
    .select(['partner', raw('count(*) as active_keys')])
    .where({ partner: { $in: partnerIds }, revokedAt: null })
    .groupBy('partner')
    .execute<{ partner_id: string; active_keys: number | string }[]>('all', false);
  return new Map(rows.map((r) => [r.partner_id, Number(r.active_keys)]));
}

export async function getPartner(db: Database, idOrEmail: string): Promise<PartnerSummary | null> {
  const em = db.orm.em.fork();
  const ref = idOrEmail.toLowerCase();
  // Compare against the column the value can be: PostgreSQL refuses a non-UUID literal for a uuid column.
  const partner = await em.findOne(Partner, UUID.test(ref) ? { id: ref } : { email: ref });
  if (!partner) return null;
  const keys = await activeKeyCounts(em, [partner.id]);
  return toSummary(partner, keys.get(partner.id) ?? 0);
}

export async function listPartners(db: Database): Promise<PartnerSummary[]> {
  const em = db.orm.em.fork();
  const partners = await em.findAll(Partner, { orderBy: { createdAt: 'asc' } });
  const keys = await activeKeyCounts(
    em,
    partners.map((p) => p.id),
  );
  return partners.map((p) => toSummary(p, keys.get(p.id) ?? 0));
}

/**
 * The stats of one partner: one statement rather than `em.findOne`, whose query building and hydration
 * cost much of a stats call, its row as an array (`queryRows`: on PostgreSQL a named statement, planned
 * once per connection). Also the available balance (balance − reserved) the same row gives, which the
 * answer's `x-credits-remaining` would otherwise read again.
 */
export async function partnerStats(
  db: Database,
  partnerId: string,
): Promise<{ stats: PartnerStats; available: number } | null> {
  const [row] = await db.queryRows<[string, string, number | string, number | string, number | string]>(
    `select name, email, credit_balance, credit_usage, credit_reserved from partner where id = ?`,
    [partnerId],
  );
  if (!row) return null;
  const [name, email, balance, usage, reserved] = row;
  return {
    stats: { email, name, creditBalance: Number(balance), creditUsage: Number(usage) },
    available: Number(balance) - Number(reserved),
  };
}
