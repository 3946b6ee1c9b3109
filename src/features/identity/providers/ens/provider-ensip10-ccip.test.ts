import type { Address } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../../../../../test/support/closed-port.js';
import { type CcipGateway, startCcipGateway } from '../../../../../test/support/ens-ccip-gateway.js';
import { testAccount } from '../../../../../test/support/ens-deploy.js';
import { evmCoinType } from '../../../../platform/chains/registry.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import type { NamingProvider } from '../types.js';
import { expectRecord, withEnsChain } from './ens.test-helper.js';
import { createEnsProvider } from './provider.js';

/**
 * Names as wallets resolve them today, on a real node: ENSIP-10 wildcard (`*.wild.eth`), EIP-3668
 * offchain names served by a loopback gateway whose answers the resolver verifies, and ENSIP-19 primary
 * names with the `default.reverse` fallback. The contracts are compiled from test/fixtures/ens.
 */

const wildDefault = testAccount(8).address;
const alice = testAccount(1).address;
const aliceOnOptimism = testAccount(12).address;
const bob = testAccount(3).address;
const carol = testAccount(7).address;
const dave = testAccount(4).address;
const erin = testAccount(5).address;
const frank = testAccount(6).address;
const grace = testAccount(2).address;
const gatewaySigner = testAccount(9);
const forger = testAccount(10);
const OPTIMISM = evmCoinType(10);
const SOLANA_KEY = '0x06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9';
const SOLANA_ADDRESS = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const lower = (a: Address) => a.toLowerCase() as Address;

let gateway: CcipGateway;
let forgingGateway: CcipGateway;
let provider: NamingProvider;

const chain = withEnsChain({}, async ({ anvil, ens }) => {
  const offchainRecords = {
    'carol.offchain.eth': {
      address: carol,
      coinAddresses: { [OPTIMISM]: lower(carol), 501: SOLANA_KEY },
      texts: { url: 'https://carol.example', 'com.twitter': 'carol_off' },
    },
  } as const;
  [gateway, forgingGateway] = await Promise.all([
    startCcipGateway({ signer: gatewaySigner, records: offchainRecords }),
    // Same records, signed with a key the resolver does not trust.
    startCcipGateway({ signer: forger, records: { 'carol.forged.eth': offchainRecords['carol.offchain.eth'] } }),
  ]);

  const wildcard = await ens.deployWildcardResolver('wild.eth', wildDefault);
  await ens.setWildcardRecords(wildcard, {
    name: 'alice.wild.eth',
    address: alice,
    coinAddresses: { [OPTIMISM]: lower(aliceOnOptimism), 501: SOLANA_KEY },
    texts: { url: 'https://alice.example', 'com.github': 'alice-gh' },
  });
  // A plain resolver on the parent: it must not answer for names below it.
  await ens.registerName({ name: 'bob.eth', address: bob });
  await ens.deployOffchainResolver('offchain.eth', gateway.url, gatewaySigner.address);
  await ens.deployOffchainResolver('forged.eth', forgingGateway.url, gatewaySigner.address);
  await ens.deployOffchainResolver('dead.eth', `${await closedPortUrl()}/`, gatewaySigner.address);

  const defaultReverse = await ens.deployDefaultReverseResolver();
  await ens.registerName({ name: 'dave.eth', address: dave, coinAddresses: { [OPTIMISM]: lower(dave) } });
  await ens.registerName({ name: 'frank.eth', address: frank });
  await ens.registerName({ name: 'grace.eth', address: grace });
  // dave: a default primary name only.
  await ens.setDefaultPrimaryName(defaultReverse, 4, 'dave.eth');
  // erin: a default primary name that points to dave.
  await ens.setDefaultPrimaryName(defaultReverse, 5, 'dave.eth');
  // frank: an Ethereum primary name and a different default one; the chain's own wins.
  await ens.setPrimaryName(6, 'frank.eth');
  await ens.setDefaultPrimaryName(defaultReverse, 6, 'dave.eth');
  // grace: a default name with an Ethereum address record only.
  await ens.setDefaultPrimaryName(defaultReverse, 2, 'grace.eth');
  // carol: a default primary name that lives offchain, verified through the gateway.
  await ens.setDefaultPrimaryName(defaultReverse, 7, 'carol.offchain.eth');

  provider = createEnsProvider({ rpcUrl: anvil.rpcUrl, registryAddress: ens.registry, ccipAllowPrivateHosts: true });
});

afterAll(async () => {
  await Promise.all([gateway?.stop(), forgingGateway?.stop()]);
});

describe('ENSIP-10 wildcard resolution', () => {
  it('resolves any name below the wildcard resolver, with no registry node of its own', async () => {
    expect(await provider.resolve('anything.wild.eth')).toBe(wildDefault);
    expect(await provider.resolve('deeper.still.wild.eth')).toBe(wildDefault);
    expect(await provider.resolve('Alice.Wild.eth')).toBe(alice);
  });

  it('reads address, text records and multichain addresses through resolve(bytes,bytes)', async () => {
    expectRecord(await provider.records('alice.wild.eth'), {
      name: 'alice.wild.eth',
      ownerAddress: alice,
      caip2Id: 'eip155:1',
      txtRecords: [
        { key: 'url', value: 'https://alice.example', type: 'url' },
        { key: 'com.github', value: 'alice-gh', type: 'social' },
      ],
      multichainAddresses: [
        { address: alice, caip2Id: 'eip155:1' },
        { address: aliceOnOptimism, caip2Id: 'eip155:10' },
        { address: SOLANA_ADDRESS, caip2Id: 'solana:mainnet-beta' },
      ],
    });
  });

  it('does not treat a plain resolver on an ancestor as a wildcard', async () => {
    expect(await provider.resolve('bob.eth')).toBe(bob);
    expect(await provider.resolve('ghost.bob.eth')).toBeNull();
    expect(await provider.records('ghost.bob.eth')).toBeNull();
  });
});

describe('EIP-3668 CCIP-Read offchain names', () => {
  it('resolves address, text records and multichain addresses through the gateway', async () => {
    const before = gateway.requests;
    expect(await provider.resolve('carol.offchain.eth')).toBe(carol);
    expectRecord(await provider.records('carol.offchain.eth'), {
      name: 'carol.offchain.eth',
      ownerAddress: carol,
      txtRecords: [
        { key: 'url', value: 'https://carol.example', type: 'url' },
        { key: 'com.twitter', value: 'carol_off', type: 'social' },
      ],
      multichainAddresses: [
        { address: carol, caip2Id: 'eip155:1' },
        { address: carol, caip2Id: 'eip155:10' },
        { address: SOLANA_ADDRESS, caip2Id: 'solana:mainnet-beta' },
      ],
    });
    expect(gateway.requests).toBeGreaterThan(before);
  });

  it('answers null for a name the gateway does not hold', async () => {
    expect(await provider.resolve('nobody.offchain.eth')).toBeNull();
    expect(await provider.records('nobody.offchain.eth')).toBeNull();
  });

  it('reports an unreachable gateway and an answer the resolver rejects as upstream failures, not as no name', async () => {
    const started = Date.now();
    await expect(provider.resolve('carol.dead.eth')).rejects.toBeInstanceOf(UpstreamError);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(provider.resolve('carol.forged.eth')).rejects.toBeInstanceOf(UpstreamError);
    expect(forgingGateway.requests).toBeGreaterThan(0);
  });

  it('refuses gateways on loopback or private networks unless allowed', async () => {
    const guarded = createEnsProvider({ rpcUrl: chain.anvil.rpcUrl, registryAddress: chain.ens.registry });
    const before = gateway.requests;
    await expect(guarded.resolve('carol.offchain.eth')).rejects.toBeInstanceOf(UpstreamError);
    expect(gateway.requests).toBe(before);
    // Onchain names are unaffected.
    expect(await guarded.resolve('alice.wild.eth')).toBe(alice);
  });
});

describe('ENSIP-19 primary names', () => {
  it('falls back to default.reverse when the chain namespace holds no claim', async () => {
    expect(await provider.reverse(dave)).toBe('dave.eth');
  });

  it('rejects a default primary name whose forward record does not point back', async () => {
    expect(await provider.resolve('dave.eth')).toBe(dave);
    expect(await provider.reverse(erin)).toBeNull();
  });

  it('prefers the chain namespace (addr.reverse) over default.reverse', async () => {
    expect(await provider.reverse(frank)).toBe('frank.eth');
  });

  it('verifies a default primary name that lives offchain through CCIP-Read', async () => {
    expect(await provider.reverse(carol)).toBe('carol.offchain.eth');
  });

  it('verifies forward for the coin type asked for', async () => {
    // <addr>.8000000a.reverse is unset, so default.reverse answers; the name must resolve on Optimism.
    expect(await provider.reverse(dave, { coinType: OPTIMISM })).toBe('dave.eth');
    expect(await provider.reverse(grace)).toBe('grace.eth');
    expect(await provider.reverse(grace, { coinType: OPTIMISM })).toBeNull();
    // Not an EVM chain: an EVM address has no primary name there.
    expect(await provider.reverse(dave, { coinType: 501 })).toBeNull();
  });
});
