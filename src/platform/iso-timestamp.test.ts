import { describe, expect, it } from 'vitest';
import { isoTimestamp, timestampMs } from './iso-timestamp.js';

describe('isoTimestamp', () => {
  it('writes what Date#toISOString writes, across the years an import accepts and past them', () => {
    const edges = [
      new Date('0000-01-01T00:00:00.000Z').getTime(),
      new Date('0000-01-01T00:00:00.000Z').getTime() - 1, // year -1: toISOString's six-digit form
      new Date('1969-12-31T23:59:59.999Z').getTime(),
      0,
      new Date('2000-02-29T12:34:56.007Z').getTime(),
      new Date('2100-02-28T23:59:59.999Z').getTime(),
      new Date('2024-02-29T21:59:59.123Z').getTime(),
      new Date('9999-12-31T23:59:59.999Z').getTime(),
      new Date('9999-12-31T23:59:59.999Z').getTime() + 1, // year 10000: +010000
    ];
    const lowest = new Date('0000-01-01T00:00:00.000Z').getTime();
    const highest = new Date('9999-12-31T23:59:59.999Z').getTime();
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const samples = Array.from({ length: 20_000 }, () => Math.floor(lowest + random() * (highest - lowest)));
    for (const ms of [...edges, ...samples]) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
  });
});

describe('timestampMs', () => {
  it('reads what new Date reads: the stored form field by field, rolled-over and other forms by V8', () => {
    let seed = 99;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const digits = (n: number, max: number) => String(Math.floor(random() * (max + 1))).padStart(n, '0');
    const texts = [
      '0000-01-01T00:00:00.000Z',
      '0000-02-29T23:59:59.999Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T12:34:56.007Z',
      '2024-02-29T21:59:59.123Z',
      '2025-02-29T00:00:00.000Z', // no such day: V8 rolls it over to March 1
      '2100-02-29T00:00:00.000Z',
      '2025-04-31T00:00:00.000Z',
      '2025-13-01T00:00:00.000Z',
      '2025-01-01T24:00:00.000Z',
      '2025-01-01T23:60:00.000Z',
      '2025-00-10T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2025-01-01T00:00:00Z',
      '2025-01-01T00:00:00.000+02:00',
      '2025-01-01',
      'not a time',
      '',
    ];
    for (let i = 0; i < 20_000; i++) {
      texts.push(
        `${digits(4, 9999)}-${digits(2, 13)}-${digits(2, 32)}T${digits(2, 24)}:${digits(2, 60)}:${digits(2, 60)}.${digits(3, 999)}Z`,
      );
    }
    for (const text of texts) expect([text, timestampMs(text)]).toEqual([text, new Date(text).getTime()]);
  });
});
