import { defineEntity, p } from '@mikro-orm/core';
import { Partner } from './partner.js';

/** Credits held for one request between the price check and the answer; expired rows are released. */
export const CreditReservationSchema = defineEntity({
  name: 'CreditReservation',
  tableName: 'credit_reservation',
  properties: {
    id: p.uuid().primary(),
    partner: () => p.manyToOne(Partner),
    credits: p.integer(),
    operation: p.string(),
    requestId: p.string(),
    expiresAt: p.datetime().index(),
  },
});

export class CreditReservation extends CreditReservationSchema.class {}
CreditReservationSchema.setClass(CreditReservation);
