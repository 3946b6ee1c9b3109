import { Keypair, type PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { nameRegistry, reverseData } from '../../../../../test/fixtures/sns/sns-fixtures.js';
import { NAME_PROGRAM_ID } from './constants.js';
import { decodeNameRegistry, decodeReverseName, MalformedAccountError } from './decode-name-registry.js';

describe('decodeNameRegistry', () => {
  it('reads parentName | owner | class and the data after 96 bytes', () => {
    const [parent, owner, nameClass] = [0, 1, 2].map(() => Keypair.generate().publicKey) as [
      PublicKey,
      PublicKey,
      PublicKey,
    ];
    const data = nameRegistry({ parent, owner, nameClass, data: Buffer.from('hi'), space: 10 });
    const registry = decodeNameRegistry({ owner: NAME_PROGRAM_ID, data });
    expect(registry.parentName.equals(parent)).toBe(true);
    expect(registry.owner.equals(owner)).toBe(true);
    expect(registry.nameClass.equals(nameClass)).toBe(true);
    expect(registry.data).toEqual(Buffer.concat([Buffer.from('hi'), Buffer.alloc(8)]));
  });

  it('rejects accounts the name program does not own or that are shorter than the header', () => {
    const data = nameRegistry({ owner: Keypair.generate().publicKey });
    expect(() => decodeNameRegistry({ owner: Keypair.generate().publicKey, data })).toThrow(MalformedAccountError);
    expect(() => decodeNameRegistry({ owner: NAME_PROGRAM_ID, data: data.subarray(0, 95) })).toThrow(
      MalformedAccountError,
    );
  });
});

describe('decodeReverseName', () => {
  it('reads the u32-prefixed name and ignores padding after it', () => {
    expect(decodeReverseName(Buffer.concat([reverseData('bonfida'), Buffer.alloc(20)]))).toBe('bonfida');
  });

  it('drops the \\0 a subdomain label was hashed with', () => {
    expect(decodeReverseName(reverseData('\0dex'))).toBe('dex');
  });

  it('rejects a length that overruns the data', () => {
    const data = reverseData('bonfida');
    data.writeUInt32LE(50, 0);
    expect(() => decodeReverseName(data)).toThrow(MalformedAccountError);
  });
});
