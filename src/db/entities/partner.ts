import { defineEntity, p } from '@mikro-orm/core';

/**
 * A customer of the partner interface. `creditBalance + creditUsage` equals the credits ever granted;
 * `creditReserved` is the part of the balance held by requests in flight (see credits/ledger.ts).
 */
export const PartnerSchema = defineEntity({
  name: 'Partner',
  tableName: 'partner',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    email: p.string().unique(),
    creditBalance: p.bigint('number').default(0),
    creditUsage: p.bigint('number').default(0),
    creditReserved: p.bigint('number').default(0),
    sandbox: p.boolean().default(false),
    createdAt: p.datetime(),
  },
});

export class Partner extends PartnerSchema.class {}
PartnerSchema.setClass(Partner);
