import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../../../../../test/support/closed-port.js';
import { testAccount } from '../../../../../test/support/ens-deploy.js';
import { evmCoinType } from '../../../../platform/chains/registry.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import type { NamingProvider } from '../types.js';
import { expectRecord, withEnsChain } from './ens.test-helper.js';
import { createEnsProvider, ENS_INFO } from './provider.js';

const alice = testAccount(1).address;
const aliceOnOptimism = testAccount(2).address;
const impostor = testAccount(3).address;
const bob = testAccount(5).address;
const carol = testAccount(7).address;
const anEoa = testAccount(6).address;
const SOLANA_KEY = '0x06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9';
const SOLANA_ADDRESS = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const BITCOIN_SCRIPT = '0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac';
const ALICE_EXPIRY = new Date('2031-05-04T03:02:01.000Z');

let provider: NamingProvider;

const chain = withEnsChain({}, async ({ anvil, ens }) => {
  const baseRegistrar = await ens.deployBaseRegistrar();
  await ens.registerName({
    name: 'alice.eth',
    address: alice,
    coinAddresses: {
      [evmCoinType(10)]: aliceOnOptimism.toLowerCase() as Address,
      501: SOLANA_KEY,
      0: BITCOIN_SCRIPT,
    },
    texts: {
      avatar: 'https://example.com/alice.png',
      url: 'https://alice.example',
      email: 'alice@example.com',
      'com.twitter': 'alice',
      'com.github': 'alice-gh',
      description: 'Alice on a local chain',
      // Not among the keys the provider reads: must not appear.
      'org.example.private': 'hidden',
    },
  });
  await ens.setExpiry(baseRegistrar, 'alice', ALICE_EXPIRY);
  await ens.registerName({ name: 'sub.alice.eth', address: alice });
  await ens.registerName({ name: 'bob.eth', address: bob, texts: { avatar: 'ipfs://bafybeibob/avatar.png' } });
  await ens.registerName({ name: 'carol.eth', address: carol });
  await ens.registerName({ name: 'noresolver.eth', resolver: null });
  await ens.registerName({ name: 'eoaresolver.eth', resolver: anEoa });
  await ens.registerName({ name: 'notaresolver.eth', resolver: ens.registry });
  await ens.setPrimaryName(1, 'alice.eth');
  // Claims alice.eth, which points elsewhere: must not verify.
  await ens.setPrimaryName(3, 'alice.eth');
  // Claims a name in a form that normalizes to the name that does point back.
  await ens.setPrimaryName(5, 'BOB.eth');
  provider = createEnsProvider({
    rpcUrl: anvil.rpcUrl,
    registryAddress: ens.registry,
    baseRegistrarAddress: baseRegistrar,
  });
});

describe('ENS provider on a local chain', () => {
  it('describes itself as ENS on Ethereum', () => {
    expect(provider.info).toEqual(ENS_INFO);
    expect(provider.info).toMatchObject({
      provider: 'ens',
      source: 'ens',
      providerName: 'ENS',
      caip2Id: 'eip155:1',
      suffixes: ['.eth'],
      url: 'https://ens.domains',
    });
    expect(provider.status).toEqual({ enabled: true });
  });

  it('normalizes names per ENSIP-15 and rejects invalid ones', () => {
    expect(provider.normalize('VitaLik.ETH')).toBe('vitalik.eth');
    expect(() => provider.normalize('a..eth')).toThrow();
    expect(() => provider.normalize('x_y.eth')).toThrow();
    expect(() => provider.normalize('')).toThrow();
  });

  it('resolves a name to its address record, normalizing first', async () => {
    expect(await provider.resolve('alice.eth')).toBe(alice);
    expect(await provider.resolve('ALICE.eth')).toBe(alice);
    expect(await provider.resolve('sub.alice.eth')).toBe(alice);
  });

  it('returns null for unknown, unset, broken and invalid names', async () => {
    expect(await provider.resolve('nobody.eth')).toBeNull();
    expect(await provider.resolve('noresolver.eth')).toBeNull();
    // A resolver address without code answers nothing; that is the name's problem, not the upstream's.
    expect(await provider.resolve('eoaresolver.eth')).toBeNull();
    // A contract that is no resolver reverts every record read.
    expect(await provider.resolve('notaresolver.eth')).toBeNull();
    expect(await provider.records('notaresolver.eth')).toMatchObject({
      ownerAddress: null,
      multichainAddresses: [],
      txtRecords: [],
    });
    expect(await provider.resolve('a..eth')).toBeNull();
  });

  it('finds the primary name of an address and verifies it forward', async () => {
    expect(await provider.reverse(alice)).toBe('alice.eth');
    expect(await provider.reverse(alice.toLowerCase())).toBe('alice.eth');
    expect(await provider.reverse(bob)).toBe('bob.eth');
  });

  it('rejects a reverse record that does not point back to the address', async () => {
    // Sanity: the claim is on chain, only verification drops it.
    expect(await provider.resolve('alice.eth')).not.toBe(impostor);
    expect(await provider.reverse(impostor)).toBeNull();
  });

  it('returns null for addresses without a reverse record and for non-addresses', async () => {
    expect(await provider.reverse(carol)).toBeNull();
    expect(await provider.reverse('not-an-address')).toBeNull();
  });

  it('returns the full record: address, typed text records, chain addresses, avatar, expiry', async () => {
    const record = await provider.records('alice.eth');
    expect(record).not.toBeNull();
    expectRecord(record, {
      name: 'alice.eth',
      ownerAddress: alice,
      caip2Id: 'eip155:1',
      avatar: 'https://example.com/alice.png',
      expireAt: ALICE_EXPIRY,
      registeredAt: null,
      // In the order of TEXT_RECORD_KEYS, not the order they were written in.
      txtRecords: [
        { key: 'avatar', value: 'https://example.com/alice.png', type: 'url' },
        { key: 'description', value: 'Alice on a local chain', type: 'text' },
        { key: 'url', value: 'https://alice.example', type: 'url' },
        { key: 'email', value: 'alice@example.com', type: 'email' },
        { key: 'com.twitter', value: 'alice', type: 'social' },
        { key: 'com.github', value: 'alice-gh', type: 'social' },
      ],
      multichainAddresses: [
        { address: alice, caip2Id: 'eip155:1' },
        // ENSIP-11 record of Optimism, stored lower-case, read back checksummed.
        { address: aliceOnOptimism, caip2Id: 'eip155:10' },
        { address: SOLANA_ADDRESS, caip2Id: 'solana:mainnet-beta' },
        { address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', caip2Id: 'bip122:000000000019d6689c085ae165831e93' },
      ],
    });
  });

  it('gives subnames no expiry and turns IPFS avatars into gateway URLs', async () => {
    const sub = await provider.records('sub.alice.eth');
    expect(sub).toMatchObject({ name: 'sub.alice.eth', ownerAddress: alice, expireAt: null, txtRecords: [] });
    expect(sub?.multichainAddresses).toEqual([{ address: alice, caip2Id: 'eip155:1' }]);
    const bobRecord = await provider.records('bob.eth');
    expect(bobRecord?.avatar).toBe('https://ipfs.io/ipfs/bafybeibob/avatar.png');
    // Registered in the registry, never in the base registrar.
    expect(bobRecord?.expireAt).toBeNull();
  });

  it('reports a registered name without a resolver as existing but unset, and an unknown one as null', async () => {
    expect(await provider.records('noresolver.eth')).toMatchObject({
      name: 'noresolver.eth',
      ownerAddress: null,
      avatar: null,
      multichainAddresses: [],
      txtRecords: [],
    });
    expect(await provider.records('nobody.eth')).toBeNull();
  });

  it('lists no candidates: a chain has no prefix index', async () => {
    expect(await provider.candidates('ali', 10)).toEqual([]);
  });

  it('leaves expiries out when no base registrar is configured for a custom registry', async () => {
    const withoutRegistrar = createEnsProvider({ rpcUrl: chain.anvil.rpcUrl, registryAddress: chain.ens.registry });
    expect((await withoutRegistrar.records('alice.eth'))?.expireAt).toBeNull();
  });
});

describe('ENS provider without a usable upstream', () => {
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    // Accepts connections and never answers: a stuck RPC node.
    hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it('is disabled without an RPC URL and refuses lookups instead of inventing answers', async () => {
    const disabled = createEnsProvider({});
    expect(disabled.status).toEqual({ enabled: false, reason: 'ENS_RPC_URL is not set' });
    expect(disabled.info.provider).toBe('ens');
    await expect(disabled.resolve('alice.eth')).rejects.toBeInstanceOf(UpstreamError);
    await expect(disabled.reverse(alice)).rejects.toBeInstanceOf(UpstreamError);
    await expect(disabled.records('alice.eth')).rejects.toBeInstanceOf(UpstreamError);
    expect(await disabled.candidates('a', 5)).toEqual([]);
  });

  it('throws UpstreamError quickly when the RPC URL is unreachable', async () => {
    const unreachable = createEnsProvider({ rpcUrl: await closedPortUrl(), timeoutMs: 1_000 });
    const started = Date.now();
    const error = await unreachable.resolve('alice.eth').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).provider).toBe('ens');
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(unreachable.records('alice.eth')).rejects.toBeInstanceOf(UpstreamError);
    await expect(unreachable.reverse(alice)).rejects.toBeInstanceOf(UpstreamError);
  });

  it('throws UpstreamError when the RPC node does not answer within the timeout', async () => {
    const slow = createEnsProvider({ rpcUrl: hangingUrl, timeoutMs: 150 });
    const started = Date.now();
    await expect(slow.resolve('alice.eth')).rejects.toBeInstanceOf(UpstreamError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops waiting when the caller aborts', async () => {
    const slow = createEnsProvider({ rpcUrl: hangingUrl, timeoutMs: 10_000 });
    const started = Date.now();
    await expect(slow.records('alice.eth', { signal: AbortSignal.timeout(100) })).rejects.toBeInstanceOf(UpstreamError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
