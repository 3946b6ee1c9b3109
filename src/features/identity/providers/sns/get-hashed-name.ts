import { createHash } from 'node:crypto';
import { HASH_PREFIX } from './constants.js';

/**
 * Hashes a name the way the SPL Name Service program seeds its accounts: `sha256("SPL Name Service" + name)`.
 * Domains, subdomain labels (`\0sub`), records (`\x01url`) and reverse lookups (a base58 key) all go through it.
 *
 * @example
 * const seed = getHashedName('bonfida'); // 32 bytes
 */
export function getHashedName(name: string): Buffer {
  return createHash('sha256')
    .update(HASH_PREFIX + name, 'utf8')
    .digest();
}
