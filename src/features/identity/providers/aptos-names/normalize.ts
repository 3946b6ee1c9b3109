import { APT_SUFFIX } from './info.js';

/** A label as the ts-sdk's `isValidANSSegment` accepts it: 3–63 of a–z, 0–9 and inner hyphens. */
const SEGMENT = /^[a-z\d][a-z\d-]{1,61}[a-z\d]$/;

/**
 * Normalizes an Aptos Names name, `domain.apt` or `sub.domain.apt` (the router holds no deeper names),
 * lower-cased. Throws with the reason for anything the router cannot hold.
 */
export function normalizeAptName(name: string): string {
  const lower = name.trim().toLowerCase();
  if (!lower.endsWith(APT_SUFFIX)) throw new Error(`an Aptos name ends in ${APT_SUFFIX}`);
  const labels = lower.slice(0, -APT_SUFFIX.length).split('.');
  if (labels.length > 2) throw new Error('an Aptos name has at most a domain and one subdomain');
  for (const label of labels) {
    if (!SEGMENT.test(label)) {
      throw new Error(`"${label}" is not a valid label (3 to 63 of a-z, 0-9 and "-", not at either end)`);
    }
  }
  return lower;
}
