import { describe, expect, it } from 'vitest';
import { prefixUpperBound } from '../../../platform/db/prefix-range.js';
import { normalizeMoveAddress } from './address.js';
import { InvalidNameError, normalizeMnsName, parentOf } from './name.js';
import { InvalidNetworkError, networksOf } from './networks.js';

describe('MNS names', () => {
  it.each([
    ['alice', 'alice.snow'],
    ['Alice.SNOW', 'alice.snow'],
    [' pay.alice ', 'pay.alice.snow'],
    ['a_b-c9', 'a_b-c9.snow'],
    ['ÉCOLE', 'école.snow'],
  ])('normalizes %j to %j', (input, expected) => {
    expect(normalizeMnsName(input)).toBe(expected);
  });

  it.each(['', '.snow', 'a..b', 'a b', 'a/b', 'a.', `${'a'.repeat(64)}.snow`, `${'a.'.repeat(130)}snow`])(
    'rejects %j',
    (input) => {
      expect(() => normalizeMnsName(input)).toThrow(InvalidNameError);
    },
  );

  it('knows the parent of a sub-name', () => {
    expect(parentOf('alice.snow')).toBeNull();
    expect(parentOf('pay.alice.snow')).toBe('alice.snow');
    expect(parentOf('a.pay.alice.snow')).toBe('pay.alice.snow');
  });

  it('bounds a prefix range so that exactly the names starting with it fall inside', () => {
    const names = [
      'al',
      'ali',
      'ali.snow',
      'alice.snow',
      'ali\u{10ffff}',
      'alj',
      'alj.snow',
      'ak.snow',
      'ali-x.snow',
      'alî.snow',
    ];
    const upper = prefixUpperBound('ali');
    // Compare as UTF-8 bytes, as both databases do.
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    const inRange = names.filter(
      (n) => Buffer.compare(bytes(n), bytes('ali')) >= 0 && Buffer.compare(bytes(n), bytes(upper)) < 0,
    );
    expect(inRange.sort()).toEqual(names.filter((n) => n.startsWith('ali')).sort());
  });
});

describe('Movement addresses', () => {
  it.each([
    ['0x1', `0x${'0'.repeat(63)}1`],
    ['0xABCdef', `0x${'0'.repeat(58)}abcdef`],
    [`0x${'F'.repeat(64)}`, `0x${'f'.repeat(64)}`],
    ['0x742d35Cc6634C0532925a3b844Bc454e4438f44e', `0x${'0'.repeat(24)}742d35cc6634c0532925a3b844bc454e4438f44e`],
  ])('normalizes %s', (input, expected) => {
    expect(normalizeMoveAddress(input)).toBe(expected);
  });

  it.each(['', '0x', '1', 'abc', '0xg1', `0x${'1'.repeat(65)}`, '0X1'])('rejects %j', (input) => {
    expect(normalizeMoveAddress(input)).toBeNull();
  });

  // The normal form is answered as it is, by a character-table check: every character just outside its
  // ranges, in every position, must still be normalized or refused as the pattern rules.
  it('answers exactly the normal form as it is', () => {
    const normal = `0x${'0123456789abcdef'.repeat(4)}`;
    expect(normalizeMoveAddress(normal)).toBe(normal);
    for (let at = 0; at < 66; at++) {
      for (const c of ['/', ':', '`', 'g', 'A', 'F', 'X', '\u00e9', '\u0100', '\uff10']) {
        const input = normal.slice(0, at) + c + normal.slice(at + 1);
        const expected = /^0x[0-9a-fA-F]{64}$/.test(input) ? input.toLowerCase() : null;
        expect(normalizeMoveAddress(input), JSON.stringify(input)).toBe(expected);
      }
    }
    expect(normalizeMoveAddress(normal.slice(0, 65))).toBe(`0x0${normal.slice(2, 65)}`);
  });
});

describe('Movement networks', () => {
  it('maps ids and aliases to networks, mainnet first', () => {
    expect(networksOf('move-mvmt:126')).toEqual(['126']);
    expect(networksOf('move-mvmt:mainnet')).toEqual(['126']);
    expect(networksOf('move-mvmt:177')).toEqual(['177']);
    expect(networksOf('move-mvmt:testnet')).toEqual(['177']);
    expect(networksOf('move-mvmt:250')).toEqual(['250']);
    expect(networksOf('move-mvmt:*')).toEqual(['126', '177', '250']);
  });

  it.each(['eip155:1', 'move-mvmt', 'move-mvmt:5', 'move-mvmt:**', ':126', 'MOVE-MVMT:126'])('rejects %j', (id) => {
    expect(() => networksOf(id)).toThrow(InvalidNetworkError);
  });

  it('rejects the wildcard where one network is needed', () => {
    expect(() => networksOf('move-mvmt:*', { wildcard: false })).toThrow(/126 \(mainnet\), 177 \(testnet\) or 250/);
  });
});
