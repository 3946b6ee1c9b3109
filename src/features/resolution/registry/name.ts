import { AppError } from '../../../platform/errors.js';

/** Every MNS name ends in `.snow`; a bare label (`alice`) means `alice.snow`. */
export const MNS_SUFFIX = '.snow';

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// Letters, digits, marks (for scripts that need them), hyphen and underscore. Anything else, notably
// spaces, slashes and control characters, cannot be part of a registered name.
const LABEL = /^[\p{L}\p{M}\p{Nd}_-]+$/u;

export class InvalidNameError extends AppError {
  override name = 'InvalidNameError';
  constructor(message: string) {
    super('BAD_USER_INPUT', message);
  }
}

/**
 * The stored form of a name: NFC, lower-case, with the `.snow` suffix added when missing, so
 * `Alice`, `alice.SNOW` and `alice.snow` are one name. Throws `InvalidNameError` on anything that
 * cannot be a registered name, its message saying what is wrong (to follow the name in a sentence).
 */
export function normalizeMnsName(input: string): string {
  const lowered = input.trim().normalize('NFC').toLowerCase();
  const full = lowered.endsWith(MNS_SUFFIX) ? lowered : `${lowered}${MNS_SUFFIX}`;
  if (full.length > MAX_NAME_LENGTH) throw new InvalidNameError(`is longer than ${MAX_NAME_LENGTH} characters`);
  const labels = full.slice(0, -MNS_SUFFIX.length).split('.');
  for (const label of labels) {
    if (label === '') throw new InvalidNameError('has an empty label');
    if (label.length > MAX_LABEL_LENGTH)
      throw new InvalidNameError(`has a label longer than ${MAX_LABEL_LENGTH} characters`);
    if (!LABEL.test(label))
      throw new InvalidNameError('may only contain letters, digits, "-" and "_" between its dots');
  }
  return full;
}

/** The name a sub-name hangs under (`pay.alice.snow` → `alice.snow`); null for a top-level name. */
export function parentOf(name: string): string | null {
  const dot = name.indexOf('.');
  const parent = name.slice(dot + 1);
  return parent === MNS_SUFFIX.slice(1) ? null : parent;
}
