import { type Args, type CommandIO, requireFlag, UsageError } from '../../../platform/cli/command.js';
import { getPartner, type PartnerSummary } from '../partners.js';

/** The partner named by `--partner <id|email>`; a usage error when it is missing or unknown. */
export async function partnerFlag(args: Args, io: CommandIO): Promise<PartnerSummary> {
  const ref = requireFlag(args, 'partner');
  const partner = await getPartner(io.db, ref);
  if (!partner) throw new UsageError(`no partner with id or e-mail "${ref}"`);
  return partner;
}
