import { UNS_TLDS } from './info.js';

const TLDS: ReadonlySet<string> = new Set(UNS_TLDS);
// MintingManager `_isValidLabel`: a-z, 0-9 and inner hyphens; ENS-style length limit per DNS label.
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,251}[a-z0-9])?$/;

/**
 * A UNS name as UD mints it: lower case, labels of letters, digits and inner hyphens, under a UNS TLD.
 * Throws on anything else, which can never be a minted name (e.g. `_` or non-ASCII labels).
 *
 * @example
 * normalizeUnsName('Brad.Crypto') // 'brad.crypto'
 */
export function normalizeUnsName(name: string): string {
  const lower = name.trim().toLowerCase();
  const labels = lower.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !TLDS.has(tld)) throw new Error(`"${name}" is not under a UNS TLD`);
  for (const label of labels.slice(0, -1)) {
    if (!LABEL.test(label)) {
      throw new Error(`label "${label}" may hold only a-z, 0-9 and inner hyphens`);
    }
  }
  return lower;
}
