import { type AdminCommand, requireFlag, UsageError } from '../../../platform/cli/command.js';
import { listApiKeys } from '../key-usage.js';
import { getPartner } from '../partners.js';

export const keyList: AdminCommand = {
  name: 'key:list',
  usage: 'key:list --partner <id|email> [--json]',
  summary: "List a partner's API keys: prefix (what key:revoke takes), label, created, last used, revoked",
  options: { partner: { type: 'string' } },
  async run(args, io) {
    const ref = requireFlag(args, 'partner');
    const partner = await getPartner(io.db, ref);
    if (!partner) throw new UsageError(`no partner with id or e-mail "${ref}"`);
    const keys = await listApiKeys(io.db, partner.id);
    if (io.json) {
      io.out(JSON.stringify(keys));
      return;
    }
    if (!keys.length) io.out(`${partner.name} has no API keys. Issue one with key:create.`);
    for (const k of keys) {
      io.out(
        `${k.prefix}  ${k.label ?? '-'}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''}`,
      );
    }
  },
};
