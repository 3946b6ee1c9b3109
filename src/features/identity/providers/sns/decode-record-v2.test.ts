import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { recordV2Data, solanaValidation, Validation } from '../../../../../test/fixtures/sns/sns-fixtures.js';
import { bonfida } from './bonfida-sdk.js';
import { decodeRecordV2 } from './decode-record-v2.js';
import { getDomainKey } from './get-domain-key.js';
import { getRecordV2Key } from './get-record-key.js';

const owner = Keypair.generate().publicKey;
const formerOwner = Keypair.generate().publicKey;
const target = Keypair.generate().publicKey;
const ETH = Buffer.from('c0ffee254729296a45a3885639ac7e10f9d54979', 'hex');
/** The guardian that proves a `url` record's right of association (`GUARDIANS` in Bonfida's SDK). */
const URL_GUARDIAN = 'ExXjtfdQe8JacoqP9Z535WzQKjF4CzW1TTRKRgpxvya3';
const ethValidation = (address: Buffer) => ({ validation: Validation.Ethereum, id: address });

describe('decodeRecordV2', () => {
  it('returns a SOL record the owner kept fresh and the target signed', () => {
    const data = recordV2Data(target.toBytes(), { staleness: solanaValidation(owner), roa: solanaValidation(target) });
    expect(decodeRecordV2({ record: 'SOL', data, holder: owner })).toEqual({
      status: 'valid',
      value: target.toBase58(),
    });
  });

  it('ignores a record written under a former owner, or never validated, as stale', () => {
    const fresh = { roa: solanaValidation(target) };
    const stale = recordV2Data(target.toBytes(), { ...fresh, staleness: solanaValidation(formerOwner) });
    expect(decodeRecordV2({ record: 'SOL', data: stale, holder: owner })).toEqual({ status: 'stale' });
    expect(decodeRecordV2({ record: 'SOL', data: recordV2Data(target.toBytes(), fresh), holder: owner })).toEqual({
      status: 'stale',
    });
    // An unverified Solana signature carries the same id but proves nothing.
    const unverified = recordV2Data('alice_sol', {
      staleness: { validation: Validation.UnverifiedSolana, id: owner.toBytes() },
    });
    expect(decodeRecordV2({ record: 'twitter', data: unverified, holder: owner })).toEqual({ status: 'stale' });
    const twitter = recordV2Data('alice_sol', { staleness: solanaValidation(owner) });
    expect(decodeRecordV2({ record: 'twitter', data: twitter, holder: null })).toEqual({ status: 'stale' });
  });

  it('requires the right of association where the record has one', () => {
    const staleness = solanaValidation(owner);
    const other = Keypair.generate().publicKey;
    const cases = [
      ['SOL', recordV2Data(target.toBytes(), { staleness })],
      ['SOL', recordV2Data(target.toBytes(), { staleness, roa: solanaValidation(other) })],
      ['ETH', recordV2Data(ETH, { staleness, roa: { validation: Validation.Solana, id: Buffer.alloc(32) } })],
      ['ETH', recordV2Data(ETH, { staleness, roa: ethValidation(Buffer.alloc(20, 1)) })],
      ['url', recordV2Data('https://alice.example', { staleness })],
      ['url', recordV2Data('https://alice.example', { staleness, roa: solanaValidation(owner) })],
    ] as const;
    for (const [record, data] of cases) {
      expect(decodeRecordV2({ record, data, holder: owner }), record).toEqual({ status: 'unverified' });
    }
  });

  it('reads EVM addresses checksummed, url records the guardian vouched for, and plain text records', () => {
    const staleness = solanaValidation(owner);
    const eth = recordV2Data(ETH, { staleness, roa: ethValidation(ETH) });
    expect(decodeRecordV2({ record: 'BSC', data: eth, holder: owner })).toEqual({
      status: 'valid',
      value: '0xc0ffee254729296a45a3885639AC7E10F9d54979',
    });
    const guardian = solanaValidation(new PublicKey(URL_GUARDIAN));
    const url = recordV2Data('https://alice.example', { staleness, roa: guardian });
    expect(decodeRecordV2({ record: 'url', data: url, holder: owner })).toEqual({
      status: 'valid',
      value: 'https://alice.example',
    });
    const github = recordV2Data('alice-gh', { staleness });
    expect(decodeRecordV2({ record: 'github', data: github, holder: owner })).toEqual({
      status: 'valid',
      value: 'alice-gh',
    });
  });

  it('calls malformed what breaks the layout or the text encoding', () => {
    const staleness = solanaValidation(owner);
    const cases = [
      Buffer.alloc(7),
      recordV2Data('alice', { staleness, contentLength: 6 }),
      Buffer.concat([Buffer.from([7, 0, 0, 0, 5, 0, 0, 0]), Buffer.from('alice')]),
      recordV2Data(Buffer.from([0xff, 0xfe]), { staleness }),
      recordV2Data('', { staleness }),
    ];
    for (const data of cases) {
      expect(decodeRecordV2({ record: 'twitter', data, holder: owner }), data.toString('hex')).toEqual({
        status: 'malformed',
      });
    }
  });
});

describe('SDK agreement', () => {
  it('derives V2 record keys as the SDK does, for domains and subdomains', () => {
    for (const name of ['bonfida.sol', 'dex.bonfida.sol']) {
      for (const record of ['SOL', 'url', 'ETH'] as const) {
        expect(getRecordV2Key(getDomainKey(name).pubkey, record).toBase58()).toBe(
          bonfida.getRecordV2Key(name, bonfida.Record[record === 'url' ? 'Url' : record]).toBase58(),
        );
      }
    }
  });

  it('uses the validation numbers and url guardian of the SDK', () => {
    expect({ ...bonfida.Validation }).toMatchObject({ None: 0, Solana: 1, Ethereum: 2, UnverifiedSolana: 3 });
    expect(bonfida.GUARDIANS.get(bonfida.Record.Url)?.toBase58()).toBe(URL_GUARDIAN);
  });
});
