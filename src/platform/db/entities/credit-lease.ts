import { defineEntity, p } from '@mikro-orm/core';
import { Partner } from './accounts.js';

/** A block of a partner's credits leased by one process (migration 0011, src/platform/credits/ledger.ts). */
export const CreditLease = defineEntity({
  name: 'CreditLease',
  tableName: 'credit_lease',
  properties: {
    id: p.uuid().primary(),
    partner: p.manyToOne(Partner).ref().deleteRule('cascade').index(false),
    credits: p.bigint('number').check('credits >= 0'),
    flushedSeq: p.bigint('number'),
    expiresAt: p.datetime().index('credit_lease_expires_at_index'),
    createdAt: p.datetime(),
  },
});
