import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hash,
  type Hex,
  hexToBigInt,
  http,
  zeroAddress,
} from 'viem';
import { namehash } from 'viem/ens';
import { testAccount } from './ens-deploy.js';

const require = createRequire(import.meta.url);

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

/** A Hardhat artifact shipped, with bytecode, by `@unstoppabledomains/uns` (1.0.17). */
export async function unsArtifact(contract: 'UNSRegistry' | 'ProxyReader'): Promise<Artifact> {
  const path = require.resolve(`@unstoppabledomains/uns/artifacts/${contract}.json`);
  const { abi, bytecode } = JSON.parse(await readFile(path, 'utf8')) as Artifact;
  if (!bytecode || bytecode === '0x') throw new Error(`@unstoppabledomains/uns/${contract} ships no bytecode`);
  return { abi, bytecode };
}

const writeAbi = [
  {
    type: 'function',
    name: 'initialize',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'mintingManager', type: 'address' },
      { name: 'cnsRegistry', type: 'address' },
      { name: 'rootChainManager', type: 'address' },
      { name: 'childChainManager', type: 'address' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'mintTLD',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'tokenId', type: 'uint256' },
      { name: 'uri', type: 'string' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'mintWithRecords',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'labels', type: 'string[]' },
      { name: 'keys', type: 'string[]' },
      { name: 'values', type: 'string[]' },
      { name: 'withReverse', type: 'bool' },
    ],
    outputs: [],
  },
] as const;

const proxyReaderInitAbi = [
  {
    type: 'function',
    name: 'initialize',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'unsRegistry', type: 'address' },
      { name: 'cnsRegistry', type: 'address' },
    ],
    outputs: [],
  },
] as const;

export interface MintOptions {
  name: string;
  /** Anvil account index that receives the token (and the reverse record). */
  owner: number;
  records?: Record<string, string>;
  withReverse?: boolean;
}

export interface UnsTestbed {
  registry: Address;
  proxyReader: Address;
  mintTld(tld: string): Promise<void>;
  mint(options: MintOptions): Promise<void>;
}

/**
 * Deploys the real UNSRegistry and ProxyReader from `@unstoppabledomains/uns` artifacts on a local
 * node. Both are upgradeable contracts whose constructors do not lock their initializers, so they are
 * initialized directly instead of behind an ERC1967 proxy. The registry's minting manager is the
 * deployer's EOA (account 0), which may then call the `onlyMintingManager` functions (`mintTLD`,
 * `mintWithRecords`) itself, without a MintingManager contract; no CNS registry and no Polygon bridge
 * managers (all zero), so ProxyReader routes every token to UNS.
 */
export async function deployUns(rpcUrl: string): Promise<UnsTestbed> {
  const probe = createPublicClient({ transport: http(rpcUrl) });
  const chain = defineChain({
    id: await probe.getChainId(),
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 10 });
  const deployer = createWalletClient({ account: testAccount(0), chain, transport: http(rpcUrl) });
  const mined = async (hash: Hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async ({ abi, bytecode }: Artifact) => {
    const receipt = await mined(await deployer.deployContract({ abi, bytecode }));
    if (!receipt.contractAddress) throw new Error('deployment created no contract');
    return getAddress(receipt.contractAddress);
  };

  const [registryArtifact, readerArtifact] = await Promise.all([
    unsArtifact('UNSRegistry'),
    unsArtifact('ProxyReader'),
  ]);
  const registry = await deploy(registryArtifact);
  await mined(
    await deployer.writeContract({
      address: registry,
      abi: writeAbi,
      functionName: 'initialize',
      args: [deployer.account.address, zeroAddress, zeroAddress, zeroAddress],
    }),
  );
  const proxyReader = await deploy(readerArtifact);
  await mined(
    await deployer.writeContract({
      address: proxyReader,
      abi: proxyReaderInitAbi,
      functionName: 'initialize',
      args: [registry, zeroAddress],
    }),
  );

  return {
    registry,
    proxyReader,
    async mintTld(tld) {
      await mined(
        await deployer.writeContract({
          address: registry,
          abi: writeAbi,
          functionName: 'mintTLD',
          args: [hexToBigInt(namehash(tld)), tld],
        }),
      );
    },
    async mint({ name, owner, records = {}, withReverse = false }) {
      await mined(
        await deployer.writeContract({
          address: registry,
          abi: writeAbi,
          functionName: 'mintWithRecords',
          args: [
            testAccount(owner).address,
            name.split('.'),
            Object.keys(records),
            Object.values(records),
            withReverse,
          ],
        }),
      );
    },
  };
}
