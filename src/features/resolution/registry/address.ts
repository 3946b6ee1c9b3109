/**
 * Movement is an Aptos-style Move chain: an account address is 32 bytes, written in hex with a `0x`
 * prefix, case-insensitively, and often with its leading zeros dropped (`0x1` is
 * `0x000…001`). Documentation examples also show 20-byte, EVM-looking addresses; those are read as Move
 * addresses with leading zeros, which is what a Move VM makes of them too.
 */
const MOVE_ADDRESS = /^0x([0-9a-fA-F]{1,64})$/;
/** Lower-case hex digits, by character code up to `f`: the normal form's 64 digits are checked with it. */
const LOWER_HEX = new Uint8Array(103);
for (const digit of '0123456789abcdef') LOWER_HEX[digit.charCodeAt(0)] = 1;

/**
 * Whether `input` is already `0x` and 64 lower-case hex digits. A loop over a table rather than
 * `^0x[0-9a-f]+$` (or the counted `{64}`), which cost a large batch more than any other pattern.
 */
function isNormal(input: string): boolean {
  if (input.length !== 66 || input.charCodeAt(0) !== 48 || input.charCodeAt(1) !== 120) return false;
  for (let i = 2; i < 66; i++) {
    const c = input.charCodeAt(i);
    if (c > 102 || LOWER_HEX[c] === 0) return false;
  }
  return true;
}

/** The form addresses are matched in: lower-case, `0x` and 64 hex digits. Null when not an address. */
export function normalizeMoveAddress(input: string): string | null {
  // Most clients send the normal form already: answering with the same string spares a batch four new
  // strings per address.
  if (isNormal(input)) return input;
  const m = MOVE_ADDRESS.exec(input.trim());
  if (!m) return null;
  return `0x${(m[1] as string).toLowerCase().padStart(64, '0')}`;
}

export const ADDRESS_RULE = '0x followed by 1 to 64 hex digits';
