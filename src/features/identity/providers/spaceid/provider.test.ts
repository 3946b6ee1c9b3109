import { base58 } from '@scure/base';
import { toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { testAccount } from '../../../../../test/support/ens-deploy.js';
import { evmCoinType } from '../../../../platform/chains/registry.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { expectRecord, withEnsChain } from '../ens/ens.test-helper.js';
import { createSpaceIdProvider, SPACEID_INFO } from './provider.js';

/**
 * SPACE ID's `.bnb` and `.arb` registries are ENS forks (registry, PublicResolver, ReverseRegistrar);
 * the ENS artifacts deployed on two anvil nodes (chain ids 56 and 42161) stand in for them, read
 * through the provider code that reads mainnet, pointed at the deployed registries.
 */

const alice = testAccount(1).address;
const bob = testAccount(2).address;
const carol = testAccount(3).address;
const mallory = testAccount(7).address;
const ALICE_EXPIRY = new Date('2031-05-06T07:08:09.000Z');
// Any valid Solana public key, made up for this test; ENSIP-9 stores it as its 32 raw bytes (coin type 501).
const SOL_KEY = 'HKKp49qGWXd639QsuH7JiLijfVW5UtCVY4s1n2HANwEA';
const SOL_BYTES = toHex(base58.decode(SOL_KEY));

let baseRegistrar: `0x${string}`;

const bsc = withEnsChain({ chainId: 56 }, async ({ ens }) => {
  baseRegistrar = await ens.deployBaseRegistrar();
  await ens.registerName({
    name: 'alice.bnb',
    address: alice,
    coinAddresses: { 501: SOL_BYTES },
    texts: { 'com.twitter': 'alice_bnb', url: 'https://alice.example', avatar: 'https://alice.example/a.png' },
  });
  await ens.setExpiry(baseRegistrar, 'alice', ALICE_EXPIRY);
  await ens.registerName({ name: 'carol.bnb', address: carol });
  await ens.setPrimaryName(1, 'alice.bnb');
  await ens.setPrimaryName(3, 'carol.bnb');
  // mallory claims a name that points elsewhere.
  await ens.setPrimaryName(7, 'alice.bnb');
});

const arbitrum = withEnsChain({ chainId: 42161 }, async ({ ens }) => {
  await ens.registerName({ name: 'bob.arb', address: bob, texts: { 'com.github': 'bob-gh' } });
  await ens.registerName({ name: 'carol.arb', address: carol });
  await ens.setPrimaryName(2, 'bob.arb');
  await ens.setPrimaryName(3, 'carol.arb');
});

const both = () =>
  createSpaceIdProvider({
    bnb: { rpcUrl: bsc.anvil.rpcUrl, registryAddress: bsc.ens.registry, baseRegistrarAddress: baseRegistrar },
    arb: { rpcUrl: arbitrum.anvil.rpcUrl, registryAddress: arbitrum.ens.registry },
  });

describe('SPACE ID provider on local ENS-compatible registries', () => {
  it('describes itself as SPACE ID, owning .bnb and .arb', () => {
    const provider = both();
    expect(provider.info).toEqual(SPACEID_INFO);
    expect(provider.info).toMatchObject({
      provider: 'spaceid',
      source: 'spaceid',
      providerName: 'SPACE ID',
      caip2Id: 'eip155:56',
      suffixes: ['.bnb', '.arb'],
    });
    expect(provider.status).toEqual({ enabled: true });
  });

  it('resolves .bnb names on BNB Chain and .arb names on Arbitrum', async () => {
    const provider = both();
    expect(await provider.resolve('alice.bnb')).toBe(alice);
    expect(await provider.resolve('Bob.ARB')).toBe(bob);
    expect(await provider.resolve('bob.bnb')).toBeNull();
    expect(await provider.resolve('alice.arb')).toBeNull();
  });

  it('reads the full record, naming the TLD chain', async () => {
    const provider = both();
    expectRecord(await provider.records('alice.bnb'), {
      name: 'alice.bnb',
      ownerAddress: alice,
      caip2Id: 'eip155:56',
      avatar: 'https://alice.example/a.png',
      expireAt: ALICE_EXPIRY,
      registeredAt: null,
      txtRecords: [
        { key: 'avatar', value: 'https://alice.example/a.png', type: 'url' },
        { key: 'url', value: 'https://alice.example', type: 'url' },
        { key: 'com.twitter', value: 'alice_bnb', type: 'social' },
      ],
      multichainAddresses: [
        { address: alice, caip2Id: 'eip155:1' },
        { address: SOL_KEY, caip2Id: 'solana:mainnet-beta' },
      ],
    });
    expectRecord(await provider.records('bob.arb'), {
      name: 'bob.arb',
      ownerAddress: bob,
      caip2Id: 'eip155:42161',
      expireAt: null,
      txtRecords: [{ key: 'com.github', value: 'bob-gh', type: 'social' }],
      multichainAddresses: [{ address: bob, caip2Id: 'eip155:1' }],
    });
    expect(await provider.records('nobody.bnb')).toBeNull();
    expect(await provider.records('nobody.arb')).toBeNull();
  });

  it('reads primary names from each chain, verified forward, .bnb first', async () => {
    const provider = both();
    expect(await provider.reverse(alice)).toBe('alice.bnb');
    expect(await provider.reverse(bob)).toBe('bob.arb');
    expect(await provider.reverse(carol)).toBe('carol.bnb');
    expect(await provider.reverse(mallory)).toBeNull();
    expect(await provider.reverse(testAccount(9).address)).toBeNull();
  });

  it('reads only the chain a coin type asks about', async () => {
    const provider = both();
    expect(await provider.reverse(carol, { coinType: evmCoinType(42161) })).toBe('carol.arb');
    expect(await provider.reverse(carol, { coinType: evmCoinType(56) })).toBe('carol.bnb');
    expect(await provider.reverse(bob, { coinType: evmCoinType(56) })).toBeNull();
    expect(await provider.reverse(carol, { coinType: 60 })).toBeNull();
    expect(await provider.reverse(carol, { coinType: 501 })).toBeNull();
  });

  it('refuses names that are not .bnb or .arb, or not ENSIP-15 normalized', () => {
    const provider = both();
    for (const bad of ['bad_name.bnb', 'alice.eth', 'bnb', 'a..bnb']) {
      expect(() => provider.normalize(bad), bad).toThrow();
    }
    expect(provider.normalize('ALICE.bnb')).toBe('alice.bnb');
  });

  it('serves one TLD when only its chain is configured', async () => {
    const bnbOnly = createSpaceIdProvider({ bnb: { rpcUrl: bsc.anvil.rpcUrl, registryAddress: bsc.ens.registry } });
    expect(bnbOnly.status).toEqual({ enabled: true });
    expect(await bnbOnly.resolve('alice.bnb')).toBe(alice);
    expect(() => bnbOnly.normalize('bob.arb')).toThrow(/\.arb names are not enabled/);
    expect(await bnbOnly.records('bob.arb')).toBeNull();
    expect(await bnbOnly.reverse(bob)).toBeNull();
  });

  it('fails with an UpstreamError when BNB Chain does not answer, but not when only Arbitrum fails', async () => {
    const deadBsc = createSpaceIdProvider({
      bnb: { rpcUrl: 'http://127.0.0.1:9', registryAddress: bsc.ens.registry },
      arb: { rpcUrl: arbitrum.anvil.rpcUrl, registryAddress: arbitrum.ens.registry },
      timeoutMs: 500,
    });
    await expect(deadBsc.records('alice.bnb')).rejects.toBeInstanceOf(UpstreamError);
    await expect(deadBsc.reverse(bob)).rejects.toBeInstanceOf(UpstreamError);
    expect(await deadBsc.resolve('bob.arb')).toBe(bob);
    const deadArb = createSpaceIdProvider({
      bnb: { rpcUrl: bsc.anvil.rpcUrl, registryAddress: bsc.ens.registry },
      arb: { rpcUrl: 'http://127.0.0.1:9', registryAddress: arbitrum.ens.registry },
      timeoutMs: 500,
    });
    expect(await deadArb.reverse(alice)).toBe('alice.bnb');
  });

  it('is disabled without an RPC URL', async () => {
    const disabled = createSpaceIdProvider({});
    expect(disabled.status).toEqual({
      enabled: false,
      reason: 'SPACEID_BSC_RPC_URL or SPACEID_ARB_RPC_URL is not set',
    });
    await expect(disabled.resolve('alice.bnb')).rejects.toBeInstanceOf(UpstreamError);
  });
});
