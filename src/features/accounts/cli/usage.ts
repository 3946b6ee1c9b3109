import { type AdminCommand, asUsageError, outJson, stringFlag } from '../../../platform/cli/command.js';
import { AppError } from '../../../platform/errors.js';
import { partnerUsage, usageRange } from '../usage.js';
import { partnerFlag } from './partner-flag.js';

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
    const range = await asUsageError(AppError, () =>
      usageRange({
        from: stringFlag(args, 'from'),
        to: stringFlag(args, 'to'),
        granularity: stringFlag(args, 'granularity'),
      }),
    );
    const partner = await partnerFlag(args, io);
    const report = await partnerUsage(io.db, partner.id, range);
    // The shape GET /partners/usage answers.
    if (outJson(io, report)) return;
    io.out(
      `${partner.name} <${partner.email}>: ${report.totalCredits} credits charged from ${report.from} to ${report.to}`,
    );
    for (const row of report.periods) {
      io.out(`${row.period}  ${row.operation}  ${row.credits} credits  ${row.calls} calls`);
    }
  },
};
