import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

const require = createRequire(import.meta.url);

/** A Truffle build artifact shipped by `@ensdomains/ens` or `@ensdomains/resolver`. */
export async function ensArtifact(
  pkg: '@ensdomains/ens' | '@ensdomains/resolver',
  contract: string,
): Promise<Artifact> {
  const path = require.resolve(`${pkg}/build/contracts/${contract}.json`);
  const { abi, bytecode } = JSON.parse(await readFile(path, 'utf8')) as Artifact;
  if (!bytecode || bytecode === '0x') throw new Error(`${pkg}/${contract} ships no bytecode`);
  return { abi, bytecode };
}

const FIXTURES = new URL('../fixtures/ens/', import.meta.url);
const FIXTURE_SOURCES = ['TestBaseRegistrar.sol', 'TestL2ReverseRegistrar.sol'] as const;
type FixtureName = 'TestBaseRegistrar' | 'TestL2ReverseRegistrar';

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

let compiled: Promise<Record<FixtureName, Artifact>> | undefined;

/**
 * Compiles the Solidity stand-ins in test/fixtures/ens with solc-js, once per process. They cover
 * contracts no npm package ships bytecode for (base registrar expiries, ENSIP-19 L2 reverse).
 */
export function fixtureArtifact(name: FixtureName): Promise<Artifact> {
  compiled ??= compileFixtures();
  return compiled.then((all) => all[name]);
}

async function compileFixtures(): Promise<Record<FixtureName, Artifact>> {
  const { default: solc } = (await import('solc')) as { default: { compile(input: string): string } };
  const sources: Record<string, { content: string }> = {};
  for (const file of FIXTURE_SOURCES) sources[file] = { content: await readFile(new URL(file, FIXTURES), 'utf8') };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources,
        // Paris keeps PUSH0 out of the bytecode, so it deploys on any EVM version anvil is set to.
        settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as SolcOutput;
  const errors = output.errors?.filter((e) => e.severity === 'error') ?? [];
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const artifact = (file: string, contract: FixtureName): Artifact => {
    const out = output.contracts[file]?.[contract];
    if (!out) throw new Error(`solc produced no ${contract}`);
    return { abi: out.abi, bytecode: `0x${out.evm.bytecode.object}` };
  };
  return {
    TestBaseRegistrar: artifact('TestBaseRegistrar.sol', 'TestBaseRegistrar'),
    TestL2ReverseRegistrar: artifact('TestL2ReverseRegistrar.sol', 'TestL2ReverseRegistrar'),
  };
}
