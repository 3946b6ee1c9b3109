import type { AdminCommand } from '../platform/cli/command.js';
import { ledgerRollup } from '../platform/credits/cli/ledger-rollup.js';
import { creditsGrant } from './accounts/cli/credits-grant.js';
import { keyCreate } from './accounts/cli/key-create.js';
import { keyList } from './accounts/cli/key-list.js';
import { keyRevoke } from './accounts/cli/key-revoke.js';
import { partnerCreate } from './accounts/cli/partner-create.js';
import { partnerList } from './accounts/cli/partner-list.js';
import { usage } from './accounts/cli/usage.js';
import { namesImport } from './resolution/cli/names-import.js';

/** Every admin command, for the admin entry (src/admin.ts); a new command is a file in its feature's cli/ plus one line here. */
export const commands: AdminCommand[] = [
  partnerCreate,
  partnerList,
  creditsGrant,
  keyCreate,
  keyList,
  keyRevoke,
  usage,
  ledgerRollup,
  namesImport,
];
