import { randomUUID } from 'node:crypto';
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

/** Creates a partner with an opening grant (a ledger row) and its first API key. */
export async function createPartner(
  db: Database,
  input: { name: string; email: string; credits: number; sandbox?: boolean },
): Promise<{ partner: PartnerSummary; key: IssuedKey }> {
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  if (!name) throw new PartnerInputError('name must not be empty');
  if (!EMAIL.test(email)) throw new PartnerInputError(`"${input.email}" is not an e-mail address`);
  if (!Number.isSafeInteger(input.credits) || input.credits < 0)
    throw new PartnerInputError('credits must be a whole number ≥ 0');
  const existing = await db.query('select id from partner where email = ?', [email]);
  if (existing.length) throw new PartnerInputError(`a partner with e-mail ${email} already exists`);

  const id = randomUUID();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.run(
      'insert into partner (id, name, email, credit_balance, credit_usage, credit_reserved, sandbox, created_at) values (?, ?, ?, 0, 0, 0, ?, ?)',
      [id, name, email, input.sandbox ?? false, now],
    );
    if (input.credits > 0) await grantWithin(tx, id, input.credits, 'partner:create');
  });
  const key = await issueApiKey(db, id, 'initial');
  const partner = await getPartner(db, id);
  if (!partner) throw new Error('partner vanished after creation');
  return { partner, key };
}

type Tx = Pick<Database, 'run'>;

async function grantWithin(tx: Tx, partnerId: string, credits: number, operation: string): Promise<void> {
  const changed = await tx.run('update partner set credit_balance = credit_balance + ? where id = ?', [
    credits,
    partnerId,
  ]);
  if (changed !== 1) throw new PartnerInputError(`no partner with id ${partnerId}`);
  await tx.run(
    'insert into ledger_entry (partner_id, kind, operation, credits, request_id, created_at) values (?, ?, ?, ?, ?, ?)',
    [partnerId, 'grant', operation, credits, null, new Date().toISOString()],
  );
}

/** Adds credits to a partner's balance, recorded as a grant in the ledger. */
export async function grantCredits(db: Database, partnerId: string, credits: number): Promise<PartnerSummary> {
  if (!Number.isSafeInteger(credits) || credits <= 0) throw new PartnerInputError('credits must be a whole number > 0');
  await db.transaction((tx) => grantWithin(tx, partnerId, credits, 'credits:grant'));
  const partner = await getPartner(db, partnerId);
  if (!partner) throw new PartnerInputError(`no partner with id ${partnerId}`);
  return partner;
}

interface PartnerRow {
  id: string;
  name: string;
  email: string;
  credit_balance: number | string;
  credit_usage: number | string;
  credit_reserved: number | string;
  sandbox: boolean | number;
  created_at: Date | string | number;
  active_keys: number | string;
}

const SELECT_PARTNER = `select p.id, p.name, p.email, p.credit_balance, p.credit_usage, p.credit_reserved, p.sandbox, p.created_at,
  (select count(*) from api_key k where k.partner_id = p.id and k.revoked_at is null) as active_keys
  from partner p`;

function toSummary(row: PartnerRow): PartnerSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    creditBalance: Number(row.credit_balance),
    creditUsage: Number(row.credit_usage),
    creditReserved: Number(row.credit_reserved),
    sandbox: Boolean(row.sandbox),
    createdAt: new Date(row.created_at).toISOString(),
    activeKeys: Number(row.active_keys),
  };
}

export async function getPartner(db: Database, idOrEmail: string): Promise<PartnerSummary | null> {
  const byId = UUID.test(idOrEmail);
  const rows = await db.query<PartnerRow>(`${SELECT_PARTNER} where ${byId ? 'p.id' : 'p.email'} = ?`, [
    idOrEmail.toLowerCase(),
  ]);
  return rows[0] ? toSummary(rows[0]) : null;
}

export async function listPartners(db: Database): Promise<PartnerSummary[]> {
  return (await db.query<PartnerRow>(`${SELECT_PARTNER} order by p.created_at`)).map(toSummary);
}

export async function partnerStats(db: Database, partnerId: string): Promise<PartnerStats | null> {
  const rows = await db.query<PartnerRow>(
    'select name, email, credit_balance, credit_usage from partner where id = ?',
    [partnerId],
  );
  const row = rows[0];
  return row
    ? {
        email: row.email,
        name: row.name,
        creditBalance: Number(row.credit_balance),
        creditUsage: Number(row.credit_usage),
      }
    : null;
}
