import { type AdminCommand, outJson, stringFlag } from '../../../platform/cli/command.js';
import { issueApiKey } from '../api-keys.js';
import { partnerFlag } from './partner-flag.js';

export const keyCreate: AdminCommand = {
  name: 'key:create',
  usage: 'key:create --partner <id|email> [--label <text>] [--json]',
  summary: 'Issue another API key for a partner (shown only once)',
  options: { partner: { type: 'string' }, label: { type: 'string' } },
  async run(args, io) {
    const partner = await partnerFlag(args, io);
    const key = await issueApiKey(io.db, partner.id, stringFlag(args, 'label'));
    if (!outJson(io, { id: key.id, partnerId: partner.id, prefix: key.prefix, apiKey: key.apiKey })) {
      io.out(`API key for ${partner.name} (shown once, store it now): ${key.apiKey}`);
    }
  },
};
