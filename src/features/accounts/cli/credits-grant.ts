import { type AdminCommand, intFlag, requireFlag, UsageError } from '../../../platform/cli/command.js';
import { getPartner, grantCredits } from '../partners.js';

export const creditsGrant: AdminCommand = {
  name: 'credits:grant',
  usage: 'credits:grant --partner <id|email> --credits <n> [--json]',
  summary: 'Add credits to a partner (recorded as a grant in the ledger)',
  options: { partner: { type: 'string' }, credits: { type: 'string' } },
  async run(args, io) {
    const ref = requireFlag(args, 'partner');
    const credits = intFlag(args, 'credits', { required: true, min: 1 }) as number;
    const partner = await getPartner(io.db, ref);
    if (!partner) throw new UsageError(`no partner with id or e-mail "${ref}"`);
    const updated = await grantCredits(io.db, partner.id, credits);
    io.out(
      io.json
        ? JSON.stringify(updated)
        : `Granted ${credits} credits to ${updated.name}; balance is now ${updated.creditBalance}.`,
    );
  },
};
