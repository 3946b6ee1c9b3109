/**
 * Decoding of the loosely typed numbers upstream JSON carries. Amounts and prices stay strings end to
 * end: a float would silently round an 18-decimal amount or sum "0.1" and "0.2" to 0.30000000000000004.
 */

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const SCIENTIFIC = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i;

/** A plain decimal string ("3166.21") from a string or number, including "1.5e-7" forms; else undefined. */
export function toDecimalString(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  if (PLAIN_DECIMAL.test(text)) return text;
  const m = SCIENTIFIC.exec(text);
  if (!m) return undefined;
  const [, sign = '', intPart = '', frac = '', expText = '0'] = m;
  const digits = `${intPart}${frac}`;
  const point = intPart.length + Number(expText);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = `${digits}${'0'.repeat(point - digits.length)}`;
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}${trimDecimal(out)}`;
}

/** An unsigned integer as a decimal string, from "0x…" hex, a decimal string or a safe integer. */
export function toIntegerString(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value.toString() : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^0x[0-9a-f]+$/i.test(text)) return BigInt(text).toString();
  if (/^\d+$/.test(text)) return BigInt(text).toString();
  return undefined;
}

/** Exact sum of decimal strings; entries that are not numbers are skipped. "0" for none. */
export function sumDecimals(values: readonly unknown[]): string {
  let scale = 0;
  const parsed: string[] = [];
  for (const v of values) {
    const d = toDecimalString(v);
    if (d === undefined) continue;
    parsed.push(d);
    scale = Math.max(scale, d.split('.')[1]?.length ?? 0);
  }
  let total = 0n;
  for (const d of parsed) total += toScaled(d, scale);
  return fromScaled(total, scale);
}

/**
 * USD value of `amount` base units of a token with `decimals`, at `priceUSD` per whole token, rounded
 * down to `fractionDigits`. Undefined when the price is not a number.
 */
export function usdValue(amount: bigint, decimals: number, priceUSD: unknown, fractionDigits = 6): string | undefined {
  const price = toDecimalString(priceUSD);
  if (price === undefined) return undefined;
  const priceScale = price.split('.')[1]?.length ?? 0;
  const product = amount * toScaled(price, priceScale);
  // product carries decimals + priceScale fraction digits; keep fractionDigits of them.
  const drop = decimals + priceScale - fractionDigits;
  const scaled = drop >= 0 ? product / 10n ** BigInt(drop) : product * 10n ** BigInt(-drop);
  return fromScaled(scaled, fractionDigits);
}

function toScaled(decimal: string, scale: number): bigint {
  const negative = decimal.startsWith('-');
  const [intPart = '0', frac = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const value = BigInt(`${intPart}${frac.padEnd(scale, '0')}`);
  return negative ? -value : value;
}

function fromScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  const trimmed = trimDecimal(text);
  return negative && trimmed !== '0' ? `-${trimmed}` : trimmed;
}

function trimDecimal(text: string): string {
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '' || trimmed === '-' ? '0' : trimmed;
}
