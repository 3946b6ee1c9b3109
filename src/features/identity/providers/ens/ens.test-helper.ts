import { afterAll, beforeAll, expect } from 'vitest';
import { type Anvil, type StartAnvilOptions, startAnvil } from '../../../../../test/support/anvil.js';
import { deployEns, type EnsTestbed } from '../../../../../test/support/ens-deploy.js';
import type { NameRecord } from '../types.js';

export interface EnsChain {
  anvil: Anvil;
  ens: EnsTestbed;
}

/**
 * A fresh anvil node with the ENS contracts deployed, for the tests of the calling file or describe:
 * `setup` writes the names they read. The node is stopped after them.
 */
export function withEnsChain(anvilOptions: StartAnvilOptions, setup: (chain: EnsChain) => Promise<void>): EnsChain {
  const chain = {} as EnsChain;
  beforeAll(async () => {
    chain.anvil = await startAnvil(anvilOptions);
    chain.ens = await deployEns(chain.anvil.rpcUrl);
    await setup(chain);
  });
  afterAll(async () => {
    await chain.anvil?.stop();
  });
  return chain;
}

/** `actual` holds exactly the items of `expected`, in any order. */
export function expectSameItems<T>(actual: readonly T[] | undefined, expected: readonly T[]): void {
  expect(actual).toEqual(expect.arrayContaining(expected as unknown[]));
  expect(actual).toHaveLength(expected.length);
}

/**
 * `record` has these fields, exactly these text records in the order the provider reads keys, and
 * exactly these chain addresses in any order.
 */
export function expectRecord(
  record: NameRecord | null | undefined,
  {
    txtRecords,
    multichainAddresses,
    ...fields
  }: Partial<NameRecord> & Pick<NameRecord, 'txtRecords' | 'multichainAddresses'>,
): void {
  expect(record).toMatchObject(fields);
  expect(record?.txtRecords).toEqual(txtRecords);
  expectSameItems(record?.multichainAddresses, multichainAddresses);
}
