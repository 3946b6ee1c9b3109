import { outJson, stringFlag } from '../../../platform/cli/command.js';
import { issueApiKey } from '../api-keys.js';
import { partnerCommand } from './partner-flag.js';

export const keyCreate = partnerCommand({
  name: 'key:create',
  usage: 'key:create --partner <id|email> [--label <text>] [--json]',
  summary: 'Issue another API key for a partner (shown only once)',
  options: { label: { type: 'string' } },
  async run(partner, args, io) {
    const key = await issueApiKey(io.db, partner.id, stringFlag(args, 'label'));
    if (!outJson(io, { id: key.id, partnerId: partner.id, prefix: key.prefix, apiKey: key.apiKey })) {
      io.out(`API key for ${partner.name} (shown once, store it now): ${key.apiKey}`);
    }
  },
});
