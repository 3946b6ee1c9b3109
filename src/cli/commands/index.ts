import type { AdminCommand } from '../command.js';
import { creditsGrant } from './credits-grant.js';
import { keyCreate } from './key-create.js';
import { keyRevoke } from './key-revoke.js';
import { namesImport } from './names-import.js';
import { partnerCreate } from './partner-create.js';
import { partnerList } from './partner-list.js';

/** Every admin command; a new command is a file in this folder plus one line here. */
export const commands: AdminCommand[] = [partnerCreate, partnerList, creditsGrant, keyCreate, keyRevoke, namesImport];
