import { defineEntity, p } from '@mikro-orm/core';
import { Partner } from './partner.js';

/** One movement of credits: a grant adds to the balance, a charge moves credits from balance to usage. */
export const LedgerEntrySchema = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entry',
  properties: {
    id: p.integer().primary().autoincrement(),
    partner: () => p.manyToOne(Partner).index(),
    kind: p.enum(['grant', 'charge'] as const),
    operation: p.string(),
    credits: p.integer(),
    requestId: p.string().nullable(),
    createdAt: p.datetime(),
  },
});

export class LedgerEntry extends LedgerEntrySchema.class {}
LedgerEntrySchema.setClass(LedgerEntry);
