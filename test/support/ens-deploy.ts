import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  hexToBigInt,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
  zeroHash,
} from 'viem';
import { type HDAccount, mnemonicToAccount } from 'viem/accounts';
import { labelhash, namehash } from 'viem/ens';
import { ensArtifact, fixtureArtifact } from './ens-contracts.js';

/** Anvil's default mnemonic: its first accounts are funded with 10 000 ETH. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export const testAccount = (addressIndex: number): HDAccount => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex });

// Typed ABIs of the calls the helpers write; the artifacts' untyped ABIs are only used to deploy.
const registryWriteAbi = [
  {
    type: 'function',
    name: 'setSubnodeOwner',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'label', type: 'bytes32' },
      { name: 'owner', type: 'address' },
    ],
    outputs: [{ name: '', type: 'bytes32' }],
  },
  {
    type: 'function',
    name: 'setResolver',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'resolver', type: 'address' },
    ],
    outputs: [],
  },
] as const;

const resolverWriteAbi = [
  {
    type: 'function',
    name: 'setAddr',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'a', type: 'address' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'setAddr',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'coinType', type: 'uint256' },
      { name: 'a', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'setText',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'key', type: 'string' },
      { name: 'value', type: 'string' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'setName',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'name', type: 'string' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'multicall',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'data', type: 'bytes[]' }],
    outputs: [{ name: 'results', type: 'bytes[]' }],
  },
] as const;

const setNameAbi = [
  {
    type: 'function',
    name: 'setName',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'name', type: 'string' }],
    outputs: [{ name: '', type: 'bytes32' }],
  },
] as const;

const setExpiryAbi = [
  {
    type: 'function',
    name: 'setExpiry',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'id', type: 'uint256' },
      { name: 'expiresAt', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

export interface RegisterNameOptions {
  /** Full name; every missing ancestor is created, owned by the deployer. */
  name: string;
  /** Resolver to set; the deployed PublicResolver by default, `null` for none. */
  resolver?: Address | null;
  /** `addr(bytes32)` record (coin type 60). */
  address?: Address;
  /** ENSIP-9 records in binary form, by coin type. */
  coinAddresses?: Record<number, Hex>;
  texts?: Record<string, string>;
}

export interface EnsTestbed {
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  registry: Address;
  resolver: Address;
  /** ReverseRegistrar owning `addr.reverse`. */
  reverseRegistrar: Address;
  /** Wallet of anvil account `index`; account 0 deployed everything and owns the names it registers. */
  wallet(index: number): WalletClient<Transport, Chain, Account>;
  registerName(options: RegisterNameOptions): Promise<void>;
  /** Primary name via the ReverseRegistrar (`<addr>.addr.reverse`), sent by the account itself. */
  setPrimaryName(accountIndex: number, name: string): Promise<void>;
  /** Reverse record under any other namespace (e.g. `80002105.reverse`), written by the deployer. */
  setReverseRecord(options: { namespace: string; address: Address; name: string }): Promise<void>;
  /** Deploys a stand-in base registrar; `setExpiry` then records an expiry for a label. */
  deployBaseRegistrar(): Promise<Address>;
  setExpiry(baseRegistrar: Address, label: string, expiresAt: Date): Promise<void>;
  /** Deploys a stand-in ENSIP-19 L2 reverse registrar; `setL2PrimaryName` writes a claim to it. */
  deployL2ReverseRegistrar(): Promise<Address>;
  setL2PrimaryName(reverseRegistrar: Address, accountIndex: number, name: string): Promise<void>;
  /**
   * Deploys an ENSIP-10 wildcard resolver and sets it on `parentName` only; every name below answers
   * `defaultAddress` unless `setWildcardRecords` gave it its own records.
   */
  deployWildcardResolver(parentName: string, defaultAddress: Address): Promise<Address>;
  setWildcardRecords(wildcardResolver: Address, options: Omit<RegisterNameOptions, 'resolver'>): Promise<void>;
  /** Deploys an EIP-3668 offchain resolver sending clients to `gatewayUrl`, set on `name`. */
  deployOffchainResolver(name: string, gatewayUrl: string, signer: Address): Promise<Address>;
  /** Deploys a `default.reverse` resolver (ENSIP-19) and sets it on `default.reverse`. */
  deployDefaultReverseResolver(): Promise<Address>;
  /** The account's default primary name, sent by the account itself. */
  setDefaultPrimaryName(defaultReverseResolver: Address, accountIndex: number, name: string): Promise<void>;
}

/**
 * Deploys ENSRegistry and ReverseRegistrar (`@ensdomains/ens@0.6.2`) and PublicResolver
 * (`@ensdomains/resolver@0.3.1`) on a local node, wires `addr.reverse` to the ReverseRegistrar, and
 * returns helpers that register names and reverse records the way ENS users do.
 */
export async function deployEns(rpcUrl: string): Promise<EnsTestbed> {
  const probe = createPublicClient({ transport: http(rpcUrl) });
  const chain = defineChain({
    id: await probe.getChainId(),
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 10 });
  const wallets = new Map<number, WalletClient<Transport, Chain, Account>>();
  const wallet = (index: number) => {
    let w = wallets.get(index);
    if (!w) {
      w = createWalletClient({ account: testAccount(index), chain, transport: http(rpcUrl) });
      wallets.set(index, w);
    }
    return w;
  };
  const deployer = wallet(0);

  const mined = async (hash: Hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async ({ abi, bytecode }: { abi: Abi; bytecode: Hex }, args: readonly unknown[] = []) => {
    const receipt = await mined(await deployer.deployContract({ abi, bytecode, args }));
    if (!receipt.contractAddress) throw new Error('deployment created no contract');
    return getAddress(receipt.contractAddress);
  };

  const [registryArtifact, reverseArtifact, resolverArtifact] = await Promise.all([
    ensArtifact('@ensdomains/ens', 'ENSRegistry'),
    ensArtifact('@ensdomains/ens', 'ReverseRegistrar'),
    ensArtifact('@ensdomains/resolver', 'PublicResolver'),
  ]);
  const registry = await deploy(registryArtifact);
  const resolver = await deploy(resolverArtifact, [registry]);

  const setSubnodeOwner = async (parent: Hex, label: string, owner: Address) =>
    mined(
      await deployer.writeContract({
        address: registry,
        abi: registryWriteAbi,
        functionName: 'setSubnodeOwner',
        args: [parent, labelhash(label), owner],
      }),
    );
  const setResolver = async (node: Hex, nodeResolver: Address) =>
    mined(
      await deployer.writeContract({
        address: registry,
        abi: registryWriteAbi,
        functionName: 'setResolver',
        args: [node, nodeResolver],
      }),
    );

  /** Creates `name` and its missing ancestors, owned by the deployer; returns its node. */
  const created = new Set<string>(['']);
  const ensureNode = async (name: string): Promise<Hex> => {
    const labels = name.split('.');
    for (let i = labels.length - 1; i >= 0; i--) {
      const current = labels.slice(i).join('.');
      if (created.has(current)) continue;
      const parent = labels.slice(i + 1).join('.');
      await setSubnodeOwner(parent ? namehash(parent) : zeroHash, labels[i] as string, deployer.account.address);
      created.add(current);
    }
    return namehash(name);
  };

  await ensureNode('reverse');
  const reverseRegistrar = await deploy(reverseArtifact, [registry, resolver]);
  await setSubnodeOwner(namehash('reverse'), 'addr', reverseRegistrar);
  created.add('addr.reverse'); // owned by the ReverseRegistrar from here on, never by the deployer

  return {
    chain,
    publicClient,
    registry,
    resolver,
    reverseRegistrar,
    wallet,

    async registerName({ name, resolver: nameResolver = resolver, address, coinAddresses = {}, texts = {} }) {
      const node = await ensureNode(name);
      if (nameResolver === null) return;
      await setResolver(node, nameResolver);
      const calls: Hex[] = [];
      if (address)
        calls.push(encodeFunctionData({ abi: resolverWriteAbi, functionName: 'setAddr', args: [node, address] }));
      for (const [coinType, data] of Object.entries(coinAddresses)) {
        calls.push(
          encodeFunctionData({ abi: resolverWriteAbi, functionName: 'setAddr', args: [node, BigInt(coinType), data] }),
        );
      }
      for (const [key, value] of Object.entries(texts)) {
        calls.push(encodeFunctionData({ abi: resolverWriteAbi, functionName: 'setText', args: [node, key, value] }));
      }
      if (calls.length === 0) return;
      if (nameResolver !== resolver) throw new Error('records can only be written to the deployed PublicResolver');
      // One multicall transaction per name keeps the fixture setup to a few blocks.
      await mined(
        await deployer.writeContract({
          address: resolver,
          abi: resolverWriteAbi,
          functionName: 'multicall',
          args: [calls],
        }),
      );
    },

    async setPrimaryName(accountIndex, name) {
      const w = wallet(accountIndex);
      await mined(
        await w.writeContract({ address: reverseRegistrar, abi: setNameAbi, functionName: 'setName', args: [name] }),
      );
    },

    async setReverseRecord({ namespace, address, name }) {
      if (namespace === 'addr.reverse')
        throw new Error('addr.reverse belongs to the ReverseRegistrar: use setPrimaryName');
      const node = await ensureNode(`${address.slice(2).toLowerCase()}.${namespace}`);
      await setResolver(node, resolver);
      await mined(
        await deployer.writeContract({
          address: resolver,
          abi: resolverWriteAbi,
          functionName: 'setName',
          args: [node, name],
        }),
      );
    },

    async deployBaseRegistrar() {
      return deploy(await fixtureArtifact('TestBaseRegistrar'));
    },

    async setExpiry(baseRegistrar, label, expiresAt) {
      await mined(
        await deployer.writeContract({
          address: baseRegistrar,
          abi: setExpiryAbi,
          functionName: 'setExpiry',
          args: [hexToBigInt(labelhash(label)), BigInt(Math.floor(expiresAt.getTime() / 1000))],
        }),
      );
    },

    async deployL2ReverseRegistrar() {
      return deploy(await fixtureArtifact('TestL2ReverseRegistrar'));
    },

    async deployWildcardResolver(parentName, defaultAddress) {
      const wildcard = await deploy(await fixtureArtifact('TestWildcardResolver'), [
        namehash(parentName),
        defaultAddress,
      ]);
      await setResolver(await ensureNode(parentName), wildcard);
      return wildcard;
    },

    async setWildcardRecords(wildcard, { name, address, coinAddresses = {}, texts = {} }) {
      const node = namehash(name);
      const send = async (data: Hex) => mined(await deployer.sendTransaction({ to: wildcard, data }));
      if (address)
        await send(encodeFunctionData({ abi: resolverWriteAbi, functionName: 'setAddr', args: [node, address] }));
      for (const [coinType, data] of Object.entries(coinAddresses)) {
        await send(
          encodeFunctionData({ abi: resolverWriteAbi, functionName: 'setAddr', args: [node, BigInt(coinType), data] }),
        );
      }
      for (const [key, value] of Object.entries(texts)) {
        await send(encodeFunctionData({ abi: resolverWriteAbi, functionName: 'setText', args: [node, key, value] }));
      }
    },

    async deployOffchainResolver(name, gatewayUrl, signer) {
      const offchain = await deploy(await fixtureArtifact('TestOffchainResolver'), [gatewayUrl, signer]);
      await setResolver(await ensureNode(name), offchain);
      return offchain;
    },

    async deployDefaultReverseResolver() {
      const defaultReverse = await deploy(await fixtureArtifact('TestDefaultReverseResolver'), [
        namehash('default.reverse'),
      ]);
      await setResolver(await ensureNode('default.reverse'), defaultReverse);
      return defaultReverse;
    },

    async setDefaultPrimaryName(defaultReverseResolver, accountIndex, name) {
      const w = wallet(accountIndex);
      await mined(
        await w.writeContract({
          address: defaultReverseResolver,
          abi: setNameAbi,
          functionName: 'setName',
          args: [name],
        }),
      );
    },

    async setL2PrimaryName(l2ReverseRegistrar, accountIndex, name) {
      const w = wallet(accountIndex);
      await mined(
        await w.writeContract({ address: l2ReverseRegistrar, abi: setNameAbi, functionName: 'setName', args: [name] }),
      );
    },
  };
}
