import { creditsGrant } from '../features/accounts/cli/credits-grant.js';
import { keyCreate } from '../features/accounts/cli/key-create.js';
import { keyList } from '../features/accounts/cli/key-list.js';
import { keyRevoke } from '../features/accounts/cli/key-revoke.js';
import { partnerCreate } from '../features/accounts/cli/partner-create.js';
import { partnerList } from '../features/accounts/cli/partner-list.js';
import { usage } from '../features/accounts/cli/usage.js';
import { namesImport } from '../features/resolution/cli/names-import.js';
import type { AdminCommand } from '../platform/cli/command.js';
import { ledgerRollup } from '../platform/credits/cli/ledger-rollup.js';

/** Every admin command; a new command is a file in this folder plus one line here. */
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
