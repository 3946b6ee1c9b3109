import { describe, expect, it } from 'vitest';
import { parseCaip2 } from './caip2.js';

describe('parseCaip2', () => {
  it('parses the spec’s chain ids and the Movement namespace', () => {
    expect(parseCaip2('eip155:8453')).toEqual({ namespace: 'eip155', reference: '8453' });
    expect(parseCaip2('solana:mainnet-beta')).toEqual({ namespace: 'solana', reference: 'mainnet-beta' });
    expect(parseCaip2('bip122:000000000019d6689c085ae165831e93')?.reference).toBe('000000000019d6689c085ae165831e93');
    expect(parseCaip2('move-mvmt:*')).toEqual({ namespace: 'move-mvmt', reference: '*' });
  });

  it('rejects what is not a chain id', () => {
    for (const bad of [
      '',
      'eip155',
      ':1',
      'EIP155:1',
      'eip155:',
      'eip155:1:2',
      'eip155:1*',
      'e:1',
      `${'a'.repeat(17)}:1`,
    ])
      expect(parseCaip2(bad), bad).toBeNull();
  });
});
