import { describe, expect, it } from 'vitest';
import { evmCoinType } from '../../../../platform/chains/registry.js';
import { base58, caip2IdOfCoinType, decodeCoinAddress, evmChainIdOfCoinType } from './coin-address.js';

// Published vectors: the Solana Token program id, the Bitcoin genesis address, BIP-173 and BIP-350.
const TOKEN_PROGRAM_HEX = '0x06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const BITCOIN = 'bip122:000000000019d6689c085ae165831e93';

describe('decodeCoinAddress', () => {
  it('checksums EVM addresses and maps ENSIP-11 coin types to their chain', () => {
    const raw = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
    expect(decodeCoinAddress(60, raw)).toEqual({
      address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      caip2Id: 'eip155:1',
    });
    expect(decodeCoinAddress(evmCoinType(8453), raw)?.caip2Id).toBe('eip155:8453');
    // A chain outside the registry still has a CAIP-2 id derived from its coin type.
    expect(decodeCoinAddress(evmCoinType(324), raw)?.caip2Id).toBe('eip155:324');
  });

  it('rejects EVM records that are not 20 non-zero bytes', () => {
    expect(decodeCoinAddress(60, '0xd8da6bf26964af9d7eed9e03e53415d37aa960')).toBeNull();
    expect(decodeCoinAddress(60, `0x${'00'.repeat(20)}`)).toBeNull();
    expect(decodeCoinAddress(60, '0x')).toBeNull();
  });

  it('encodes Solana public keys (coin type 501) in base58', () => {
    expect(decodeCoinAddress(501, TOKEN_PROGRAM_HEX)).toEqual({
      address: TOKEN_PROGRAM,
      caip2Id: 'solana:mainnet-beta',
    });
    expect(decodeCoinAddress(501, '0x06ddf6e1')).toBeNull();
  });

  it('turns Bitcoin scriptPubkeys (coin type 0) into mainnet addresses', () => {
    const cases: [string, string][] = [
      ['0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
      ['0xa91462e907b15cbf27d5425399ebf6f0fb50ebb88f1887', '3Ai1JZ8pdJb2ksieUV8FsxSNVJCpoPi8W6'],
      ['0x0014751e76e8199196d454941c45d1b3a323f1433bd6', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
      [
        '0x00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
        'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      ],
      [
        '0x512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
        'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      ],
    ];
    for (const [script, address] of cases)
      expect(decodeCoinAddress(0, script as `0x${string}`)).toEqual({ address, caip2Id: BITCOIN });
  });

  it('gives no address for scripts without a standard address form or unknown coin types', () => {
    expect(decodeCoinAddress(0, '0x6a0401020304')).toBeNull(); // OP_RETURN
    expect(decodeCoinAddress(0, '0x0015751e76e8199196d454941c45d1b3a323f1433bd6aa')).toBeNull(); // v0 of 21 bytes
    expect(decodeCoinAddress(2, '0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac')).toBeNull(); // Litecoin
  });
});

describe('coin type helpers', () => {
  it('round-trips ENSIP-11 EVM coin types', () => {
    expect(evmChainIdOfCoinType(60)).toBe(1);
    expect(evmChainIdOfCoinType(evmCoinType(42161))).toBe(42161);
    expect(evmChainIdOfCoinType(501)).toBeUndefined();
    expect(caip2IdOfCoinType(501)).toBe('solana:mainnet-beta');
    expect(caip2IdOfCoinType(2)).toBeNull();
  });

  it('keeps leading zero bytes as leading 1s in base58', () => {
    expect(base58(Uint8Array.of(0, 0, 1))).toBe('112');
  });
});
