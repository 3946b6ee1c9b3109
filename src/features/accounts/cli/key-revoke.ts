import { type AdminCommand, outJson, stringFlag, UsageError } from '../../../platform/cli/command.js';
import { revokeApiKey } from '../api-keys.js';

export const keyRevoke: AdminCommand = {
  name: 'key:revoke',
  usage: 'key:revoke <key id | key prefix (cgk_xxxxxxxx)> [--json]',
  summary: 'Revoke an API key at once; it answers 401 from then on',
  options: { key: { type: 'string' } },
  async run(args, io) {
    const ref = args.positional[0] ?? stringFlag(args, 'key');
    if (!ref) throw new UsageError('give the key id or its public prefix');
    const revoked = await revokeApiKey(io.db, ref);
    if (!revoked) throw new UsageError(`no active key with id or prefix "${ref}"`);
    if (!outJson(io, { revoked: ref })) io.out(`Revoked key ${ref}.`);
  },
};
