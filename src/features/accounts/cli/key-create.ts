import { type AdminCommand, requireFlag, UsageError } from '../../../platform/cli/command.js';
import { issueApiKey } from '../api-keys.js';
import { getPartner } from '../partners.js';

export const keyCreate: AdminCommand = {
  name: 'key:create',
  usage: 'key:create --partner <id|email> [--label <text>] [--json]',
  summary: 'Issue another API key for a partner (shown only once)',
  options: { partner: { type: 'string' }, label: { type: 'string' } },
  async run(args, io) {
    const ref = requireFlag(args, 'partner');
    const label = args.flags.get('label');
    const partner = await getPartner(io.db, ref);
    if (!partner) throw new UsageError(`no partner with id or e-mail "${ref}"`);
    const key = await issueApiKey(io.db, partner.id, typeof label === 'string' ? label : undefined);
    if (io.json) io.out(JSON.stringify({ id: key.id, partnerId: partner.id, prefix: key.prefix, apiKey: key.apiKey }));
    else io.out(`API key for ${partner.name} (shown once, store it now): ${key.apiKey}`);
  },
};
