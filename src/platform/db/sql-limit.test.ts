import { describe, expect, it } from 'vitest';
import { limitClause } from './sql-limit.js';

describe('limitClause', () => {
  it('writes only a non-negative integer into the SQL', () => {
    expect(limitClause(500)).toBe('limit 500');
    expect(limitClause(0)).toBe('limit 0');
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => limitClause(bad)).toThrow(RangeError);
    expect(() => limitClause('1; drop table partner' as unknown as number)).toThrow(RangeError);
  });
});
