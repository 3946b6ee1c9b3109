import { outJson } from '../../../platform/cli/command.js';
import { listApiKeys } from '../key-usage.js';
import { partnerCommand } from './partner-flag.js';

export const keyList = partnerCommand({
  name: 'key:list',
  usage: 'key:list --partner <id|email> [--json]',
  summary: "List a partner's API keys: prefix (what key:revoke takes), label, created, last used, revoked",
  async run(partner, _args, io) {
    const keys = await listApiKeys(io.db, partner.id);
    // The shape GET /partners/keys answers.
    if (outJson(io, { keys })) return;
    if (!keys.length) io.out(`${partner.name} has no API keys. Issue one with key:create.`);
    for (const k of keys) {
      io.out(
        `${k.prefix}  ${k.label ?? '-'}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''}`,
      );
    }
  },
});
