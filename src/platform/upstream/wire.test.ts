import { describe, expect, it } from 'vitest';
import { sumDecimals, toDecimalString, toIntegerString, usdValue } from './wire.js';

describe('wire values', () => {
  it('toDecimalString keeps plain decimals and expands scientific notation', () => {
    expect(toDecimalString('3166.21')).toBe('3166.21');
    expect(toDecimalString(1.00074)).toBe('1.00074');
    expect(toDecimalString('1.5e-7')).toBe('0.00000015');
    expect(toDecimalString(2e21)).toBe('2000000000000000000000');
    expect(toDecimalString('abc')).toBeUndefined();
    expect(toDecimalString(null)).toBeUndefined();
  });

  it('toIntegerString converts hex and decimal integers', () => {
    expect(toIntegerString('0x55730')).toBe('350000');
    expect(toIntegerString('0x0')).toBe('0');
    expect(toIntegerString('123')).toBe('123');
    expect(toIntegerString(42)).toBe('42');
    expect(toIntegerString('1.5')).toBeUndefined();
    expect(toIntegerString(undefined)).toBeUndefined();
  });

  it('sumDecimals adds exactly and skips non-numbers', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['0.0151', '1.2', undefined, '2'])).toBe('3.2151');
    expect(sumDecimals([])).toBe('0');
    expect(sumDecimals(['0.00'])).toBe('0');
  });

  it('usdValue multiplies base units by price, rounding down', () => {
    expect(usdValue(129486280n, 6, '1.00074')).toBe('129.582099');
    expect(usdValue(10n ** 18n, 18, '3166.21')).toBe('3166.21');
    expect(usdValue(1n, 18, '3000', 6)).toBe('0');
    expect(usdValue(5n, 0, '2')).toBe('10');
    expect(usdValue(5n, 0, 'n/a')).toBeUndefined();
  });
});
