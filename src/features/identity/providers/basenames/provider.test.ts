import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { testAccount } from '../../../../../test/support/ens-deploy.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { expectRecord, withEnsChain } from '../ens/ens.test-helper.js';
import type { NamingProvider } from '../types.js';
import { BASE_COIN_TYPE, BASE_REVERSE_NAMESPACE, BASENAMES_INFO, createBasenamesProvider } from './provider.js';

const alice = testAccount(1).address;
const baseOnly = testAccount(2).address;
const ethOnly = testAccount(3).address;
const carol = testAccount(4).address;
const eve = testAccount(5).address;
const dave = testAccount(6).address;
const mallory = testAccount(7).address;
const ALICE_EXPIRY = new Date('2030-01-02T03:04:05.000Z');

const base = (address: Address) => ({ [BASE_COIN_TYPE]: address.toLowerCase() as Address });

let provider: NamingProvider;

const chain = withEnsChain({ chainId: 8453 }, async ({ anvil, ens }) => {
  const [baseRegistrar, l2ReverseRegistrar] = [await ens.deployBaseRegistrar(), await ens.deployL2ReverseRegistrar()];

  // Basenames writes both the Base record and the Ethereum one; these names differ on purpose.
  await ens.registerName({
    name: 'alice.base.eth',
    address: alice,
    coinAddresses: base(alice),
    texts: { 'com.github': 'alice-gh', url: 'https://alice.example' },
  });
  await ens.setExpiry(baseRegistrar, 'alice', ALICE_EXPIRY);
  await ens.registerName({ name: 'split.base.eth', address: ethOnly, coinAddresses: base(baseOnly) });
  await ens.registerName({ name: 'legacy.base.eth', address: ethOnly });
  await ens.registerName({ name: 'carol.base.eth', coinAddresses: base(carol) });
  await ens.registerName({ name: 'eve.base.eth', coinAddresses: base(eve) });
  await ens.registerName({ name: 'dave.base.eth', coinAddresses: base(dave) });

  // alice: primary name under Base's registry reverse namespace (the original Basenames registrar).
  await ens.setReverseRecord({ namespace: BASE_REVERSE_NAMESPACE, address: alice, name: 'alice.base.eth' });
  // carol: primary name in the ENSIP-19 L2 reverse registrar only.
  await ens.setL2PrimaryName(l2ReverseRegistrar, 4, 'carol.base.eth');
  // eve: the L2 registrar claims a name that is not hers; the older registry record would verify.
  await ens.setL2PrimaryName(l2ReverseRegistrar, 5, 'alice.base.eth');
  await ens.setReverseRecord({ namespace: BASE_REVERSE_NAMESPACE, address: eve, name: 'eve.base.eth' });
  // dave: only an Ethereum-style addr.reverse record, which Basenames does not read by default.
  await ens.setPrimaryName(6, 'dave.base.eth');
  // mallory: claims alice's name under the Base namespace.
  await ens.setReverseRecord({ namespace: BASE_REVERSE_NAMESPACE, address: mallory, name: 'alice.base.eth' });

  provider = createBasenamesProvider({
    rpcUrl: anvil.rpcUrl,
    registryAddress: ens.registry,
    baseRegistrarAddress: baseRegistrar,
    l2ReverseRegistrarAddress: l2ReverseRegistrar,
  });
});

describe('Basenames provider on a local chain', () => {
  it('describes itself as Basenames on Base', () => {
    expect(provider.info).toEqual(BASENAMES_INFO);
    expect(provider.info).toMatchObject({
      provider: 'basenames',
      source: 'basenames',
      providerName: 'Basenames',
      caip2Id: 'eip155:8453',
      suffixes: ['.base.eth'],
      url: 'https://www.base.org/names',
    });
    expect(BASE_COIN_TYPE).toBe(0x80002105);
    expect(BASE_REVERSE_NAMESPACE).toBe('80002105.reverse');
  });

  it('resolves to the Base address record, falling back to the Ethereum one', async () => {
    expect(await provider.resolve('alice.base.eth')).toBe(alice);
    expect(await provider.resolve('split.base.eth')).toBe(baseOnly);
    expect(await provider.resolve('legacy.base.eth')).toBe(ethOnly);
    expect(await provider.resolve('Alice.Base.eth')).toBe(alice);
    expect(await provider.resolve('nobody.base.eth')).toBeNull();
  });

  it('reads primary names from the Base reverse namespace and verifies them', async () => {
    expect(await provider.reverse(alice)).toBe('alice.base.eth');
    expect(await provider.reverse(mallory)).toBeNull();
  });

  it('prefers the ENSIP-19 L2 reverse registrar, without falling back past a claim that fails', async () => {
    expect(await provider.reverse(carol)).toBe('carol.base.eth');
    expect(await provider.reverse(eve)).toBeNull();
  });

  it('reads addr.reverse only when configured to', async () => {
    expect(await provider.reverse(dave)).toBeNull();
    const withAddrReverse = createBasenamesProvider({
      rpcUrl: chain.anvil.rpcUrl,
      registryAddress: chain.ens.registry,
      reverseNamespaces: [BASE_REVERSE_NAMESPACE, 'addr.reverse'],
    });
    expect(await withAddrReverse.reverse(dave)).toBe('dave.base.eth');
    expect(await withAddrReverse.reverse(alice)).toBe('alice.base.eth');
  });

  it('returns the full record with the Base chain, expiry and chain addresses', async () => {
    expectRecord(await provider.records('alice.base.eth'), {
      name: 'alice.base.eth',
      ownerAddress: alice,
      caip2Id: 'eip155:8453',
      avatar: null,
      expireAt: ALICE_EXPIRY,
      registeredAt: null,
      txtRecords: [
        { key: 'url', value: 'https://alice.example', type: 'url' },
        { key: 'com.github', value: 'alice-gh', type: 'social' },
      ],
      multichainAddresses: [
        { address: alice, caip2Id: 'eip155:1' },
        { address: alice, caip2Id: 'eip155:8453' },
      ],
    });
    expect(await provider.records('nobody.base.eth')).toBeNull();
  });

  it('is disabled without an RPC URL', async () => {
    const disabled = createBasenamesProvider({});
    expect(disabled.status).toEqual({ enabled: false, reason: 'BASE_RPC_URL is not set' });
    await expect(disabled.resolve('alice.base.eth')).rejects.toBeInstanceOf(UpstreamError);
    expect(await disabled.candidates('al', 5)).toEqual([]);
  });
});
