/**
 * The bridge test contracts (test/fixtures/bridge), compiled with the `solc` package for the tests
 * that execute a route's approval and transaction on anvil.
 */
import { readFile } from 'node:fs/promises';
import { type Abi, type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http } from 'viem';
import type { TransactionData } from './providers/types.js';

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

/**
 * The test token and bridge deployed on an anvil chain, `mint` tokens given to its first account, and the
 * calls the executable-route tests make: send a route's transaction as handed out, read a balance.
 */
export async function deployTestBridge(rpcUrl: string, mint: bigint) {
  const wallet = createWalletClient({ transport: http(rpcUrl) });
  const reader = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 });
  const [sender] = (await wallet.getAddresses()) as [Address];
  const artifacts = await compileTestContracts();
  const deploy = async (a: { abi: Abi; bytecode: Hex }) => {
    const hash = await wallet.deployContract({ abi: a.abi, bytecode: a.bytecode, account: sender, chain: null });
    return (await reader.waitForTransactionReceipt({ hash })).contractAddress as Address;
  };
  const token = await deploy(artifacts.TestToken);
  const bridge = await deploy(artifacts.TestBridge);
  const minted = await wallet.writeContract({
    address: token,
    abi: artifacts.TestToken.abi,
    functionName: 'mint',
    args: [sender, mint],
    account: sender,
    chain: null,
  });
  await reader.waitForTransactionReceipt({ hash: minted });
  return {
    reader,
    sender,
    token,
    bridge,
    artifacts,
    deploy,
    /** Sends a route's transaction as the quote handed it out, and waits for its receipt. */
    async send(tx: TransactionData) {
      const hash = await wallet.sendTransaction({
        account: sender,
        chain: null,
        to: tx.to as Address,
        data: tx.data as Hex,
        value: BigInt(tx.value),
        ...(tx.gasLimit !== '0' ? { gas: BigInt(tx.gasLimit) } : {}),
      });
      return reader.waitForTransactionReceipt({ hash });
    },
    balanceOf: (address: Address) =>
      reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
  };
}

export type TestBridgeChain = Awaited<ReturnType<typeof deployTestBridge>>;
