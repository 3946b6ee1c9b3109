import { SUI_SUFFIX } from './info.js';

/** The longest full name SuiNS accepts (`MAX_DOMAIN_LENGTH` in Sui's sui-name-service crate). */
const MAX_NAME_LENGTH = 200;
/** A label as sui-name-service's `validate_label` accepts it: 1–63 of a–z, 0–9 and inner hyphens. */
const LABEL = /^[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?$/;

/**
 * Normalizes a SuiNS name in dot form (`alice.sui`, `pay.alice.sui`), lower-cased. Throws with the reason
 * for anything SuiNS cannot hold.
 */
export function normalizeSuiName(name: string): string {
  const lower = name.trim().toLowerCase();
  if (!lower.endsWith(SUI_SUFFIX)) throw new Error(`a SuiNS name ends in ${SUI_SUFFIX}`);
  if (lower.length > MAX_NAME_LENGTH) throw new Error(`a SuiNS name has at most ${MAX_NAME_LENGTH} characters`);
  for (const label of lower.slice(0, -SUI_SUFFIX.length).split('.')) {
    if (!LABEL.test(label)) {
      throw new Error(`"${label}" is not a valid label (1 to 63 of a-z, 0-9 and "-", not at either end)`);
    }
  }
  return lower;
}
