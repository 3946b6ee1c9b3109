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
/** Each fixture file holds one contract of the same name. */
const FIXTURES_NAMES = [
  'TestBaseRegistrar',
  'TestL2ReverseRegistrar',
  'TestWildcardResolver',
  'TestOffchainResolver',
  'TestDefaultReverseResolver',
] as const;
export type FixtureName = (typeof FIXTURES_NAMES)[number];

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

let compiled: Promise<Record<FixtureName, Artifact>> | undefined;

/**
 * Compiles the Solidity stand-ins in test/fixtures/ens with solc-js, once per process. They cover
 * contracts no npm package ships bytecode for (base registrar expiries, ENSIP-19 L2 and default reverse,
 * ENSIP-10 wildcard and EIP-3668 offchain resolvers).
 */
export function fixtureArtifact(name: FixtureName): Promise<Artifact> {
  compiled ??= compileFixtures();
  return compiled.then((all) => all[name]);
}

async function compileFixtures(): Promise<Record<FixtureName, Artifact>> {
  const { default: solc } = (await import('solc')) as { default: { compile(input: string): string } };
  const sources: Record<string, { content: string }> = {};
  for (const name of FIXTURES_NAMES) {
    sources[`${name}.sol`] = { content: await readFile(new URL(`${name}.sol`, FIXTURES), 'utf8') };
  }
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
  const artifact = (contract: FixtureName): Artifact => {
    const out = output.contracts[`${contract}.sol`]?.[contract];
    if (!out) throw new Error(`solc produced no ${contract}`);
    return { abi: out.abi, bytecode: `0x${out.evm.bytecode.object}` };
  };
  return Object.fromEntries(FIXTURES_NAMES.map((name) => [name, artifact(name)])) as Record<FixtureName, Artifact>;
}
