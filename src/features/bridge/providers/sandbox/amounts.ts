/**
 * Fixed-point helpers: amounts are bigints in base units and prices are parsed into bigints scaled
 * by 10^18, so a quote never goes through a float and stays exact and reproducible.
 */

export const PRICE_DECIMALS = 18;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS);

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Parses a non-negative decimal string into an integer scaled by 10^decimals, truncating extra digits. */
export function parseDecimal(value: string, decimals: number): bigint {
  const m = DECIMAL.exec(value);
  if (!m) throw new RangeError(`not a non-negative decimal: ${value}`);
  const whole = m[1] ?? '0';
  const fraction = (m[2] ?? '').slice(0, decimals).padEnd(decimals, '0');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction || '0');
}

export const parsePrice = (price: string): bigint => parseDecimal(price, PRICE_DECIMALS);

export const pow10 = (decimals: number): bigint => 10n ** BigInt(decimals);

export const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** USD value (scaled by 10^18) of `amount` base units of a token with `decimals` at `price` (scaled). */
export const usdValue = (amount: bigint, decimals: number, price: bigint): bigint => (amount * price) / pow10(decimals);

/** Base units of a token worth `usd` (scaled by 10^18), rounded up so that a fee is never undercharged. */
export const unitsForUsd = (usd: bigint, decimals: number, price: bigint): bigint =>
  ceilDiv(usd * pow10(decimals), price);

/**
 * Formats a USD value scaled by 10^18 as a decimal string rounded half-up to 6 places, then trimmed
 * to at least 2 places: "1234.50", "0.0036". Sub-cent gas costs on L2s stay visible instead of "0.00".
 */
export function formatUsd(scaled: bigint): string {
  if (scaled < 0n) throw new RangeError('negative USD value');
  const micro = (scaled + PRICE_SCALE / 2_000_000n) / (PRICE_SCALE / 1_000_000n);
  const whole = micro / 1_000_000n;
  let fraction = (micro % 1_000_000n).toString().padStart(6, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${whole}.${fraction}`;
}

/**
 * Minimum received amount for a slippage tolerance given as a fraction. The fraction is taken to
 * parts per million (finer than any UI offers) so the product stays integral; rounded down so the
 * minimum is never above what the tolerance allows.
 */
export function applySlippage(amount: bigint, slippage: number): bigint {
  if (!Number.isFinite(slippage) || slippage < 0 || slippage >= 1) {
    throw new RangeError(`slippage must be a fraction in [0, 1), got ${slippage}`);
  }
  const ppm = BigInt(Math.round(slippage * 1_000_000));
  return (amount * (1_000_000n - ppm)) / 1_000_000n;
}
