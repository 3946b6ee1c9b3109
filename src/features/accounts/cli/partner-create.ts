import { type AdminCommand, asUsageError, intFlag, outJson, requireFlag } from '../../../platform/cli/command.js';
import { createPartner, MAX_GRANT_CREDITS, PartnerInputError } from '../partners.js';

export const partnerCreate: AdminCommand = {
  name: 'partner:create',
  usage: 'partner:create --name <name> --email <email> --credits <n> [--sandbox] [--json]',
  summary:
    'Create a partner with an opening credit grant and print its API key (shown only once); --sandbox: served demo bridge data only',
  options: {
    name: { type: 'string' },
    email: { type: 'string' },
    credits: { type: 'string' },
    sandbox: { type: 'boolean' },
  },
  async run(args, io) {
    const name = requireFlag(args, 'name');
    const email = requireFlag(args, 'email');
    const credits = intFlag(args, 'credits', { required: true, max: MAX_GRANT_CREDITS }) as number;
    const sandbox = args.flags.get('sandbox') === true;
    const { partner, key } = await asUsageError(PartnerInputError, () =>
      createPartner(io.db, { name, email, credits, sandbox }),
    );
    if (outJson(io, { ...partner, apiKey: key.apiKey, keyPrefix: key.prefix })) return;
    io.out(
      `Created ${partner.sandbox ? 'SANDBOX partner (demo bridge data only)' : 'partner'} ${partner.name} <${partner.email}> (${partner.id}) with ${partner.creditBalance} credits.`,
    );
    io.out(`API key (shown once, store it now): ${key.apiKey}`);
  },
};
