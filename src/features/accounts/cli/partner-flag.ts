import type { ParseArgsOptionsConfig } from 'node:util';
import {
  type AdminCommand,
  type Args,
  type CommandIO,
  requireFlag,
  UsageError,
} from '../../../platform/cli/command.js';
import { getPartner, type PartnerSummary } from '../partners.js';

/** The partner named by `--partner <id|email>`; a usage error when it is missing or unknown. */
export async function partnerFlag(args: Args, io: CommandIO): Promise<PartnerSummary> {
  const ref = requireFlag(args, 'partner');
  const partner = await getPartner(io.db, ref);
  if (!partner) throw new UsageError(`no partner with id or e-mail "${ref}"`);
  return partner;
}

/** A command about one partner: it takes `--partner <id|email>` and runs once that partner is found. */
export function partnerCommand(
  command: Omit<AdminCommand, 'run'> & { run(partner: PartnerSummary, args: Args, io: CommandIO): Promise<void> },
): AdminCommand {
  const options: ParseArgsOptionsConfig = { partner: { type: 'string' }, ...command.options };
  return { ...command, options, run: async (args, io) => command.run(await partnerFlag(args, io), args, io) };
}
