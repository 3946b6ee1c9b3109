import { describe, expect, it } from 'vitest';
import { intFlag, parseArgs, UsageError } from './command.js';

const flag = (value: string, options: { min?: number; max?: number } = {}) =>
  intFlag(parseArgs([`--n=${value}`], { n: { type: 'string' } }), 'n', options);

describe('intFlag', () => {
  it('reads plain decimal digits', () => {
    expect(flag('0')).toBe(0);
    expect(flag('16')).toBe(16);
    expect(flag('2147483647')).toBe(2_147_483_647);
    expect(flag('5', { min: 5, max: 5 })).toBe(5);
  });

  it('refuses every other way Number() reads a string: hex, octal, binary, exponents, signs, blanks', () => {
    for (const value of [
      '0x10',
      '0o17',
      '0b1',
      '1e3',
      '1E3',
      '1.0',
      '1.5',
      '+5',
      '-3',
      ' 7',
      '7 ',
      '',
      '1_000',
      '010',
      'Infinity',
      '٣',
    ]) {
      expect(() => flag(value), value).toThrow(UsageError);
      expect(() => flag(value), value).toThrow(/must be a whole number in decimal digits/);
    }
  });

  it('keeps to [min, max] and to exact numbers', () => {
    expect(() => flag('0', { min: 1 })).toThrow(/from 1 to/);
    expect(() => flag('11', { max: 10 })).toThrow(/from 0 to 10, got "11"/);
    expect(() => flag('9007199254740993')).toThrow(UsageError);
  });
});
