import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../../platform/iso-timestamp.js';
import { storedTimestamp } from './import-parse.js';

describe('storedTimestamp', () => {
  // What the importer stored before values already in the stored form skipped Date.parse.
  const parsed = (v: string): string | null => {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : isoTimestamp(ms);
  };

  it('stores a value in the stored form as Date.parse reads it, rolled-over days and hours included', () => {
    const edges = [
      '2024-02-29T00:00:00.000Z',
      '2025-02-29T00:00:00.000Z', // no such day: Date.parse rolls it over to March 1
      '2000-02-29T12:00:00.000Z',
      '2100-02-29T12:00:00.000Z',
      '0000-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-31T24:00:00.000Z',
      '2026-01-31T23:60:00.000Z',
      '2026-01-31T23:59:60.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-00-01T00:00:00.000Z',
      '2026-01-00T00:00:00.000Z',
      '2026-01-32T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2026-1-31T23:59:59.999Z',
      '2026-01-31T23:59:59.999+00:00',
    ];
    let seed = 777;
    const digits = (n: number, width: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String(Math.floor((seed / 2 ** 31) * n)).padStart(width, '0');
    };
    const samples = Array.from(
      { length: 20_000 },
      () =>
        `${digits(10_000, 4)}-${digits(14, 2)}-${digits(33, 2)}T${digits(26, 2)}:${digits(62, 2)}:${digits(62, 2)}.${digits(1000, 3)}Z`,
    );
    for (const v of [...edges, ...samples]) expect([v, storedTimestamp(v)]).toEqual([v, parsed(v)]);
    expect(storedTimestamp('2024-02-29T00:00:00.000Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(storedTimestamp('2025-02-29T00:00:00.000Z')).toBe('2025-03-01T00:00:00.000Z');
    expect(storedTimestamp('2026-01-31T24:00:00.000Z')).toBe('2026-02-01T00:00:00.000Z');
    expect(storedTimestamp('2026-01-31T12:00:00Z')).toBe('2026-01-31T12:00:00.000Z');
    expect(storedTimestamp('2026-01-31T12:00:00')).toBeNull();
  });
});
