import { asUsageError, intFlag, outJson } from '../../../platform/cli/command.js';
import { grantCredits, MAX_GRANT_CREDITS, PartnerInputError } from '../partners.js';
import { partnerCommand } from './partner-flag.js';

export const creditsGrant = partnerCommand({
  name: 'credits:grant',
  usage: 'credits:grant --partner <id|email> --credits <n> [--json]',
  summary: 'Add credits to a partner (recorded as a grant in the ledger)',
  options: { credits: { type: 'string' } },
  async run(partner, args, io) {
    const credits = intFlag(args, 'credits', { required: true, min: 1, max: MAX_GRANT_CREDITS }) as number;
    const updated = await asUsageError(PartnerInputError, () => grantCredits(io.db, partner.id, credits));
    if (!outJson(io, updated))
      io.out(`Granted ${credits} credits to ${updated.name}; balance is now ${updated.creditBalance}.`);
  },
});
