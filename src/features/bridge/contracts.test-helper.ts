/**
 * The bridge test contracts (test/fixtures/bridge), compiled with the `solc` package for the tests
 * that execute a route's approval and transaction on anvil.
 */
import { readFile } from 'node:fs/promises';
import type { Abi, Hex } from 'viem';

interface SolcOut {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

type TestContract = 'TestToken' | 'TestBridge' | 'TestMayanForwarder';

export async function compileTestContracts(): Promise<Record<TestContract, { abi: Abi; bytecode: Hex }>> {
  const { default: solc } = (await import('solc')) as { default: { compile(input: string): string } };
  const dir = new URL('../../../test/fixtures/bridge/', import.meta.url);
  const sources: Record<string, { content: string }> = {};
  for (const name of ['TestToken', 'TestBridge', 'TestMayanForwarder'])
    sources[`${name}.sol`] = { content: await readFile(new URL(`${name}.sol`, dir), 'utf8') };
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources,
        settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as SolcOut;
  const errors = out.errors?.filter((e) => e.severity === 'error') ?? [];
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const pick = (n: string) => {
    const c = out.contracts[`${n}.sol`]?.[n];
    if (!c) throw new Error(`solc produced no ${n}`);
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as Hex };
  };
  return {
    TestToken: pick('TestToken'),
    TestBridge: pick('TestBridge'),
    TestMayanForwarder: pick('TestMayanForwarder'),
  };
}
