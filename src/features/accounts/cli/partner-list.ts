import { type AdminCommand, outJson } from '../../../platform/cli/command.js';
import { listPartners } from '../partners.js';

export const partnerList: AdminCommand = {
  name: 'partner:list',
  usage: 'partner:list [--json]',
  summary: 'List partners with their credits and number of active keys',
  async run(_args, io) {
    const partners = await listPartners(io.db);
    if (outJson(io, partners)) return;
    if (!partners.length) io.out('No partners yet. Create one with partner:create.');
    for (const p of partners) {
      io.out(
        `${p.id}  ${p.name} <${p.email}>  balance ${p.creditBalance}  usage ${p.creditUsage}  keys ${p.activeKeys}${p.sandbox ? '  [sandbox]' : ''}`,
      );
    }
  },
};
