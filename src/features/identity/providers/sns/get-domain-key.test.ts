import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { NAME_OFFERS_ID, NAME_PROGRAM_ID, REVERSE_LOOKUP_CLASS, SOL_TLD_KEY } from './constants.js';
import { getDomainKey } from './get-domain-key.js';
import { getHashedName } from './get-hashed-name.js';
import { getNameAccountKey } from './get-name-account-key.js';
import { getRecordKey } from './get-record-key.js';
import { getReverseKey } from './get-reverse-key.js';
import { parseSnsName } from './parse-sns-name.js';

describe('getDomainKey', () => {
  // Published pairs: Bonfida's sns-sdk `js/tests/derivation.test.ts` and `js/tests/favorite.test.ts`
  // (couponvault is a wallet's on-chain primary domain there), i.e. real mainnet accounts.
  it.each([
    ['bonfida.sol', 'Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb'],
    ['dex.bonfida.sol', 'HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu'],
    ['couponvault.sol', 'AgJujvNQgYESUwBPitq2VUrfTaT2bvueHbgvsxqZ2sHg'],
  ])('derives %s as %s, like the name program', (name, key) => {
    expect(getDomainKey(name).pubkey.toBase58()).toBe(key);
  });

  it('keys a subdomain under its parent domain', () => {
    const { pubkey, parent } = getDomainKey('dex.bonfida.sol');
    expect(parent?.toBase58()).toBe('Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb');
    // Without the `\0` prefix the label would land on a different account.
    expect(pubkey.equals(getNameAccountKey({ hashedName: getHashedName('dex'), parent }))).toBe(false);
  });

  it('normalizes case and surrounding space before hashing', () => {
    expect(getDomainKey(' Bonfida.SOL ').pubkey.toBase58()).toBe('Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb');
  });

  it('uses the record and reverse prefixes/classes so they never collide with the domain or each other', () => {
    const domain = getDomainKey('bonfida.sol').pubkey;
    const keys = [domain, getRecordKey(domain, 'url'), getRecordKey(domain, 'SOL'), getReverseKey(domain)];
    expect(new Set(keys.map((k) => k.toBase58())).size).toBe(keys.length);
    expect(
      getRecordKey(domain, 'url').equals(getNameAccountKey({ hashedName: getHashedName('\x01url'), parent: domain })),
    ).toBe(true);
  });
});

describe('parseSnsName', () => {
  it.each(['bonfida.eth', 'bonfida', '.sol', 'a..sol', 'a.b.c.sol', 'bon fida.sol', 'bon\0fida.sol'])(
    'rejects %j',
    (name) => {
      expect(() => parseSnsName(name)).toThrow();
    },
  );

  it('splits a subdomain into its labels', () => {
    expect(parseSnsName('dex.bonfida.sol')).toEqual({ name: 'dex.bonfida.sol', domain: 'bonfida', sub: 'dex' });
  });
});

describe('program addresses', () => {
  // Look-alike ids (same prefix, different tail) decode to valid keys and would silently find nothing.
  it("match Bonfida's published constants", () => {
    expect(NAME_PROGRAM_ID.toBase58()).toBe('namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX');
    expect(SOL_TLD_KEY.toBase58()).toBe('58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx');
    expect(REVERSE_LOOKUP_CLASS.toBase58()).toBe('33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z');
    expect(NAME_OFFERS_ID.toBase58()).toBe('85iDfUvr3HJyLM2zcq5BXSiDvUWfw6cSE1FfNBo8Ap29');
    expect(PublicKey.isOnCurve(getDomainKey('bonfida.sol').pubkey)).toBe(false);
  });
});
