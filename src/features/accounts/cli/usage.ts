import { type AdminCommand, requireFlag, UsageError } from '../../../platform/cli/command.js';
import { AppError } from '../../../platform/errors.js';
import { getPartner } from '../partners.js';
import { partnerUsage, usageRange } from '../usage.js';

export const usage: AdminCommand = {
  name: 'usage',
  usage: 'usage --partner <id|email> [--from <date>] [--to <date>] [--granularity day|hour] [--json]',
  summary: "A partner's credits charged per period and operation, from the ledger (as GET /partners/usage)",
  options: {
    partner: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    granularity: { type: 'string' },
  },
  async run(args, io) {
    const ref = requireFlag(args, 'partner');
    const flag = (name: string) => {
      const value = args.flags.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    let range: ReturnType<typeof usageRange>;
    try {
      range = usageRange({ from: flag('from'), to: flag('to'), granularity: flag('granularity') });
    } catch (err) {
      if (err instanceof AppError) throw new UsageError(err.message);
      throw err;
    }
    const partner = await getPartner(io.db, ref);
    if (!partner) throw new UsageError(`no partner with id or e-mail "${ref}"`);
    const report = await partnerUsage(io.db, partner.id, range);
    if (io.json) {
      io.out(JSON.stringify({ partnerId: partner.id, ...report }));
      return;
    }
    io.out(
      `${partner.name} <${partner.email}>: ${report.totalCredits} credits charged from ${report.from} to ${report.to}`,
    );
    for (const row of report.periods) {
      io.out(`${row.period}  ${row.operation}  ${row.credits} credits  ${row.calls} calls`);
    }
  },
};
