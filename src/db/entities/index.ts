import { ApiKeySchema } from './api-key.js';
import { CreditReservationSchema } from './credit-reservation.js';
import { LedgerEntrySchema } from './ledger-entry.js';
import { PartnerSchema } from './partner.js';

export { ApiKey } from './api-key.js';
export { CreditReservation } from './credit-reservation.js';
export { LedgerEntry } from './ledger-entry.js';
export { Partner } from './partner.js';

export const entities = [PartnerSchema, ApiKeySchema, CreditReservationSchema, LedgerEntrySchema];
