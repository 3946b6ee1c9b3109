import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { ed25519Sign } from '../../../../../test/fixtures/sns/sns-fixtures.js';
import { decodeRecordV1 } from './decode-record-v1.js';

const recordKey = Keypair.generate().publicKey;
const domainOwner = Keypair.generate().publicKey;
const padded = (content: Buffer, size = 2000) => Buffer.concat([content, Buffer.alloc(size - content.length)]);

describe('decodeRecordV1', () => {
  it('reads a string record up to its zero padding', () => {
    expect(decodeRecordV1({ record: 'url', data: padded(Buffer.from('https://sns.id')), recordKey, domainOwner })).toBe(
      'https://sns.id',
    );
  });

  it('treats an all-zero or invalid UTF-8 record as unset', () => {
    expect(decodeRecordV1({ record: 'twitter', data: Buffer.alloc(64), recordKey, domainOwner })).toBeUndefined();
    expect(
      decodeRecordV1({ record: 'twitter', data: padded(Buffer.from([0xff, 0xfe])), recordKey, domainOwner }),
    ).toBeUndefined();
  });

  it('reads an ETH record from 20 raw bytes, even when it ends in zero bytes', () => {
    const raw = Buffer.from('c0ffee254729296a45a3885639ac7e10f9d54900', 'hex');
    expect(decodeRecordV1({ record: 'ETH', data: padded(raw), recordKey, domainOwner })).toBe(
      '0xC0Ffee254729296A45a3885639AC7e10F9D54900',
    );
  });

  it('reads the older 0x-text form of an EVM record and rejects other text', () => {
    const text = Buffer.from('0xc0ffee254729296a45a3885639ac7e10f9d54979');
    expect(decodeRecordV1({ record: 'BSC', data: padded(text), recordKey, domainOwner })).toBe(
      '0xc0ffee254729296a45a3885639AC7E10F9d54979',
    );
    expect(
      decodeRecordV1({
        record: 'BSC',
        data: padded(Buffer.from('not an address at all, clearly')),
        recordKey,
        domainOwner,
      }),
    ).toBeUndefined();
  });

  describe('SOL', () => {
    const owner = Keypair.generate();
    const target = Keypair.generate().publicKey;
    const signed = (signer: Keypair, key = recordKey) => {
      const message = Buffer.from(Buffer.concat([target.toBuffer(), key.toBuffer()]).toString('hex'), 'utf8');
      return Buffer.concat([target.toBuffer(), ed25519Sign(signer, message)]);
    };

    it('returns the target when the domain owner signed it for this record account', () => {
      expect(decodeRecordV1({ record: 'SOL', data: signed(owner), recordKey, domainOwner: owner.publicKey })).toBe(
        target.toBase58(),
      );
    });

    it('ignores a record signed by someone else (e.g. a former owner) or for another account', () => {
      expect(
        decodeRecordV1({ record: 'SOL', data: signed(Keypair.generate()), recordKey, domainOwner: owner.publicKey }),
      ).toBeUndefined();
      expect(
        decodeRecordV1({
          record: 'SOL',
          data: signed(owner, Keypair.generate().publicKey),
          recordKey,
          domainOwner: owner.publicKey,
        }),
      ).toBeUndefined();
    });
  });
});
