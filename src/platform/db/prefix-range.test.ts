import { describe, expect, it } from 'vitest';
import { prefixUpperBound } from './prefix-range.js';

describe('prefixUpperBound', () => {
  it('bounds exactly the strings starting with the prefix', () => {
    expect(prefixUpperBound('ali')).toBe('alj');
    expect(prefixUpperBound('a\uD7FF')).toBe('a\uE000');
    expect('alice' < prefixUpperBound('ali') && 'alj' >= prefixUpperBound('ali')).toBe(true);
    expect(() => prefixUpperBound('')).toThrow();
  });
});
