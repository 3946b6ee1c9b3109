import { defineEntity, p } from '@mikro-orm/core';

// Columns are snake_case in SQL and camelCase here (SchemaNamingStrategy maps one to the other), and
// entities.test.ts fails if any name, type or constraint drifts from the migrations. Relations are not
// indexed unless the migration indexes them (MikroORM would add one per foreign key on SQLite).

export const Partner = defineEntity({
  name: 'Partner',
  tableName: 'partner',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(255),
    email: p.string().length(255).unique('partner_email_unique'),
    // Credits are whole numbers far below 2^53, so JS numbers rather than bigint/string.
    creditBalance: p.bigint('number').defaultRaw('0'),
    creditUsage: p.bigint('number').defaultRaw('0'),
    creditReserved: p.bigint('number').defaultRaw('0'),
    sandbox: p.boolean().default(false),
    createdAt: p.datetime(),
  },
  checks: [
    {
      name: 'partner_credits_nonnegative',
      expression: 'credit_balance >= 0 and credit_usage >= 0 and credit_reserved >= 0',
    },
    { name: 'partner_reserved_within_balance', expression: 'credit_reserved <= credit_balance' },
  ],
});

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.uuid().primary(),
    partner: p.manyToOne(Partner).ref().deleteRule('cascade').index('api_key_partner_id_index'),
    prefix: p.string().length(64).unique('api_key_prefix_unique'),
    hash: p.string().length(128),
    label: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});

export const CreditReservation = defineEntity({
  name: 'CreditReservation',
  tableName: 'credit_reservation',
  properties: {
    id: p.uuid().primary(),
    partner: p.manyToOne(Partner).ref().deleteRule('cascade').index(false),
    credits: p.integer().check('credits > 0'),
    operation: p.string().length(255),
    requestId: p.string().length(255),
    expiresAt: p.datetime().index('credit_reservation_expires_at_index'),
  },
});

export const LedgerEntry = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entry',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    // Indexed together with created_at below.
    partner: p.manyToOne(Partner).ref().deleteRule('cascade').index(false),
    kind: p.enum(['grant', 'charge']).columnType('varchar(16)'),
    operation: p.string().length(255),
    credits: p.integer(),
    requestId: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    // The reservation a charge settled; no foreign key, because settled reservations are deleted.
    reservationId: p.uuid().nullable().index('ledger_entry_reservation_id_index'),
  },
  indexes: [{ name: 'ledger_entry_partner_id_index', properties: ['partner', 'createdAt'] }],
});

/** Ledger rows older than LEDGER_RETENTION_DAYS, summed per partner, UTC day (`YYYY-MM-DD`), kind and operation. */
export const LedgerDaily = defineEntity({
  name: 'LedgerDaily',
  tableName: 'ledger_daily',
  properties: {
    partner: p.manyToOne(Partner).ref().primary().deleteRule('cascade').index(false),
    day: p.string().length(10).primary(),
    kind: p.enum(['grant', 'charge']).columnType('varchar(16)').primary(),
    operation: p.string().length(255).primary(),
    credits: p.bigint('number'),
    count: p.bigint('number'),
  },
});

export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_record',
  properties: {
    partner: p.manyToOne(Partner).ref().primary().deleteRule('cascade').index(false),
    idempotencyKey: p.string().length(255).primary(),
    requestHash: p.string().length(64),
    state: p.enum(['pending', 'done']).columnType('varchar(16)'),
    statusCode: p.integer().nullable(),
    contentType: p.string().length(255).nullable(),
    body: p.text().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index('idempotency_record_expires_at_index'),
  },
});
