import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.js';

const text = (out: string | Buffer) => (typeof out === 'string' ? out : out.toString('utf8'));

/** A GraphQL answer of `count` primary names, the shape of the 1000-address batch. */
const batch = (count: number, name: (i: number) => string = (i) => `u${i}.snow`) => ({
  errors: undefined,
  data: {
    primaryNames: Array.from({ length: count }, (_, i) => ({
      address: `0x${i.toString(16).padStart(64, '0')}`,
      name: name(i),
      owner: `0x${(i * 7).toString(16).padStart(64, '0')}`,
    })),
  },
  extensions: { credits: { charged: 0 } },
});

describe('jsonText', () => {
  it('writes what JSON.stringify writes, with the suffix', () => {
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [1, 'x'] });
    const values: unknown[] = [
      null,
      0,
      -1.5e-7,
      'plain',
      true,
      [],
      {},
      [undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY, null],
      {
        skipped: undefined,
        fn: () => 1,
        sym: Symbol('s'),
        kept: 0,
        nested: { deeper: { deepest: [{ a: undefined }] } },
      },
      { date: new Date(0), list: [new Date(86_400_000)], inner: { at: new Date(1) } },
      { 'quote"key': 'back\\slash', 'line\nbreak': '\u0001\u001f\u2028', '😀': 'é😀', lone: '\ud800x\udfff' },
      { boxed: [new String('s'), new Number(1), new Boolean(false)] },
      { nullProto, list: [nullProto, [nullProto, [[nullProto]]]] },
      { toJSON: () => ({ replaced: true }) },
      { a: { toJSON: () => undefined }, b: [{ toJSON: () => undefined }] },
      batch(3),
    ];
    // Each also beside a list long enough that the answer is walked rather than written at once.
    const long = Array.from({ length: 65 }, (_, i) => i);
    for (const value of values) {
      for (const answer of [value, { data: value, long }, [long, value, [value]]]) {
        expect(text(jsonText(answer, '\n'))).toBe(`${JSON.stringify(answer)}\n`);
        expect(text(jsonText(answer))).toBe(JSON.stringify(answer));
      }
    }
  });

  it('answers a short text as a string and a long one as its UTF-8 bytes, the same text either way', () => {
    expect(typeof jsonText(batch(10), '\n')).toBe('string');
    for (const value of [batch(1000), batch(1000, (i) => `ü${i}😀.snow`), { data: { list: batch(2000).data } }]) {
      const out = jsonText(value, '\n');
      expect(Buffer.isBuffer(out)).toBe(true);
      // Compared as bytes: a string of them would hide an encoding that differs from Buffer.from's.
      expect((out as Buffer).equals(Buffer.from(`${JSON.stringify(value)}\n`))).toBe(true);
    }
  });

  it('agrees with JSON.stringify on random nested values of every size', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = ['a', 'é', '😀', '"', '\\', '\n', '\u0000', '\ud800', ' ', 'z'];
    const string = () =>
      Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        '',
      );
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.4) return [null, 1.25, -3, true, false, undefined, string()][Math.floor(random() * 7)];
      if (r < 0.65)
        return Array.from({ length: Math.floor(random() * (depth === 0 ? 1500 : 5)) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 5); i > 0; i--) object[string()] = value(depth + 1);
      return object;
    };
    let long = 0;
    for (let i = 0; i < 150; i++) {
      const v = value(0);
      const out = jsonText(v, '\n');
      if (Buffer.isBuffer(out)) long++;
      expect(text(out)).toBe(`${JSON.stringify(v)}\n`);
    }
    // Both forms were checked.
    expect(long).toBeGreaterThan(5);
    expect(long).toBeLessThan(145);
  });
});
