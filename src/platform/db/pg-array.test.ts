import { describe, expect, it } from 'vitest';
import { usingPostgres } from '../../../test/support/database.js';
import { withTestDatabase } from '../../../test/support/with-database.js';
import { type PgArrayValue, pgArray } from './pg-array.js';

const TRICKY: PgArrayValue[] = [
  'plain',
  '',
  'NULL',
  'null',
  'with space',
  'a,b{c}d',
  '"quoted"',
  'back\\slash',
  'tab\tnew\nline\u0001',
  '\u{1f600} emoji',
  null,
  true,
  false,
];

describe('pgArray', () => {
  it('writes the JSON array as the literal where JSON escapes as an array literal does', () => {
    expect(pgArray(['0x1', null, true, 'a"b\\c'])).toBe('{"0x1",null,true,"a\\"b\\\\c"}');
    expect(pgArray([])).toBe('{}');
  });

  it('quotes value by value where JSON would escape otherwise (control characters, lone surrogates)', () => {
    expect(pgArray(['x\ty', null, false, 'q"', '\ud800'])).toBe('{"x\ty",NULL,f,"q\\"","\ud800"}');
  });
});

describe.runIf(usingPostgres())('pgArray on PostgreSQL', () => {
  const { db } = withTestDatabase();

  // A lone surrogate is left out: UTF-8 has no form of it, so no driver sends it to PostgreSQL's text.
  it('reads back every value exactly, text and boolean', async () => {
    const texts = TRICKY.map((v) => (typeof v === 'boolean' ? String(v) : v));
    const [row] = await db.query<{ v: (string | null)[] }>('select ?::text[] as v', [pgArray(texts)]);
    expect(row?.v).toEqual(texts);
    const flags = [true, null, false];
    const [bools] = await db.query<{ v: (boolean | null)[] }>('select ?::boolean[] as v', [pgArray(flags, true)]);
    expect(bools?.v).toEqual(flags);
  });

  it('reads back checked values (addresses) as bpchar, the type of the primary-name lookup', async () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    const [row] = await db.query<{ v: string[] }>('select ?::bpchar[] as v', [pgArray(keys, true)]);
    expect(row?.v).toEqual(keys);
  });
});
