import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SnsFixtures, solanaValidation, Validation } from '../../../../../test/fixtures/sns/sns-fixtures.js';
import { type SolanaRpcStandin, startSolanaRpcStandin } from '../../../../../test/support/solana-rpc-standin.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { createSnsProvider } from './provider.js';

let rpc: SolanaRpcStandin;
let sns: SnsFixtures;

const alice = Keypair.generate();
const bob = Keypair.generate();
const carol = Keypair.generate();
const dave = Keypair.generate();
const erin = Keypair.generate();
let aliceKey: PublicKey;
/** Bonfida's guardian for `url` records (`GUARDIANS` in `@bonfida/spl-name-service`). */
const URL_GUARDIAN = new PublicKey('ExXjtfdQe8JacoqP9Z535WzQKjF4CzW1TTRKRgpxvya3');
const DAVE_ETH = Buffer.from('d8da6bf26964af9d7eed9e03e53415d37aa96045', 'hex');

beforeAll(async () => {
  rpc = await startSolanaRpcStandin();
  sns = new SnsFixtures(rpc);

  aliceKey = sns.domain('alice', alice.publicKey);
  sns.record(aliceKey, 'url', 'https://alice.example', alice.publicKey);
  sns.record(aliceKey, 'email', 'alice@example.com', alice.publicKey);
  sns.record(aliceKey, 'twitter', 'alice_sol', alice.publicKey);
  sns.record(aliceKey, 'github', 'alice-gh', alice.publicKey);
  sns.record(aliceKey, 'pic', 'https://img.example/alice.png', alice.publicKey);
  sns.record(aliceKey, 'ETH', Buffer.from('c0ffee254729296a45a3885639ac7e10f9d54979', 'hex'), alice.publicKey, 20);
  sns.record(aliceKey, 'BSC', '0x0000000000000000000000000000000000001004', alice.publicKey);
  sns.primary(alice.publicKey, aliceKey);

  const shopKey = sns.subdomain(aliceKey, 'shop', bob.publicKey);
  sns.record(shopKey, 'discord', 'bob#0001', bob.publicKey);
  sns.primary(bob.publicKey, shopKey);

  // A SOL record signed by the owner redirects resolution; one signed by a former owner must not.
  const payKey = sns.domain('pay', carol.publicKey);
  sns.solRecord(payKey, bob.publicKey, carol);
  const soldKey = sns.domain('sold', carol.publicKey);
  sns.solRecord(soldKey, bob.publicKey, alice);

  // Carol set `stale.sol` as primary, then sold it to Bob.
  const staleKey = sns.domain('stale', bob.publicKey);
  sns.primary(carol.publicKey, staleKey);

  const nftKey = sns.domain('nft', carol.publicKey);
  sns.tokenize(nftKey, alice.publicKey);

  // Records V2, as current SNS apps write them. Dave bought `vtwo.sol` from Carol: Carol's V2 records
  // are stale. Where a record has a valid V2 account it wins over V1; a stale one falls back to V1.
  const vtwoKey = sns.domain('vtwo', dave.publicKey);
  const fresh = { staleness: solanaValidation(dave.publicKey) };
  const stale = { staleness: solanaValidation(carol.publicKey) };
  sns.recordV2(vtwoKey, 'SOL', erin.publicKey.toBytes(), { ...fresh, roa: solanaValidation(erin.publicKey) });
  sns.recordV2(vtwoKey, 'ETH', DAVE_ETH, { ...fresh, roa: { validation: Validation.Ethereum, id: DAVE_ETH } });
  sns.recordV2(vtwoKey, 'url', 'https://dave.example', { ...fresh, roa: solanaValidation(URL_GUARDIAN) });
  sns.recordV2(vtwoKey, 'twitter', 'dave_v2', fresh);
  sns.record(vtwoKey, 'twitter', 'dave_v1', dave.publicKey);
  sns.recordV2(vtwoKey, 'github', 'carol-gh', stale);
  sns.record(vtwoKey, 'github', 'dave-gh', dave.publicKey);
  sns.recordV2(vtwoKey, 'email', 'carol@example.com', stale);
  sns.recordV2(vtwoKey, 'pic', 'https://img.example/carol.png', stale);
  // Discord has no right of association to prove: a fresh staleness id is all it needs.
  sns.recordV2(vtwoKey, 'discord', 'dave#0002', fresh);
  // Carol's SOL V2 record, left behind when she sold the domain, must not redirect Dave's payments.
  const soldV2Key = sns.domain('soldvtwo', dave.publicKey);
  sns.recordV2(soldV2Key, 'SOL', erin.publicKey.toBytes(), { ...stale, roa: solanaValidation(erin.publicKey) });
  // A V2 SOL record whose target never signed (no right of association) is ignored as well.
  const unsignedKey = sns.domain('unsigned', dave.publicKey);
  sns.recordV2(unsignedKey, 'SOL', erin.publicKey.toBytes(), fresh);
});

afterAll(async () => {
  await rpc.close();
});

afterEach(() => {
  rpc.fail(null);
});

const provider = (timeoutMs = 2_000) => createSnsProvider({ rpcUrl: rpc.url, timeoutMs });

describe('createSnsProvider', () => {
  it('describes SNS', () => {
    expect(provider().info).toMatchObject({
      provider: 'sns',
      source: 'sns',
      providerName: 'Solana Name Service',
      caip2Id: 'solana:mainnet-beta',
      suffixes: ['.sol'],
      url: 'https://www.sns.id',
    });
    expect(provider().info.logoURI).toMatch(/^https:\/\/.+\.svg$/);
    expect(provider().status).toEqual({ enabled: true });
  });

  it('is disabled without an RPC URL and never answers with made-up data', async () => {
    const off = createSnsProvider({});
    expect(off.status).toEqual({ enabled: false, reason: 'SOLANA_RPC_URL is not set' });
    await expect(off.resolve('alice.sol')).rejects.toBeInstanceOf(UpstreamError);
    await expect(off.records('alice.sol')).rejects.toBeInstanceOf(UpstreamError);
    await expect(off.reverse(alice.publicKey.toBase58())).rejects.toBeInstanceOf(UpstreamError);
  });

  it('normalizes names and rejects what SNS cannot hold', () => {
    expect(provider().normalize('Shop.Alice.SOL')).toBe('shop.alice.sol');
    expect(() => provider().normalize('alice.eth')).toThrow();
  });

  describe('resolve', () => {
    it('answers the owner of a domain', async () => {
      expect(await provider().resolve('alice.sol')).toBe(alice.publicKey.toBase58());
    });

    it('answers the owner of a subdomain', async () => {
      expect(await provider().resolve('shop.alice.sol')).toBe(bob.publicKey.toBase58());
    });

    it('prefers a SOL record the owner signed, and ignores one a former owner signed', async () => {
      expect(await provider().resolve('pay.sol')).toBe(bob.publicKey.toBase58());
      expect(await provider().resolve('sold.sol')).toBe(carol.publicKey.toBase58());
    });

    it('prefers a fresh SOL V2 record its target signed; a stale or unsigned one falls back to the owner', async () => {
      expect(await provider().resolve('vtwo.sol')).toBe(erin.publicKey.toBase58());
      expect(await provider().resolve('soldvtwo.sol')).toBe(dave.publicKey.toBase58());
      expect(await provider().resolve('unsigned.sol')).toBe(dave.publicKey.toBase58());
    });

    it('answers the NFT holder of a tokenized domain, not the tokenizer that owns the registry', async () => {
      expect(await provider().resolve('nft.sol')).toBe(alice.publicKey.toBase58());
    });

    it('answers null for unknown names and names SNS cannot hold, the latter without asking the RPC', async () => {
      expect(await provider().resolve('nobody.sol')).toBeNull();
      expect(await provider().resolve('nobody.alice.sol')).toBeNull();
      const before = rpc.calls.length;
      expect(await provider().resolve('alice.eth')).toBeNull();
      expect(rpc.calls.length).toBe(before);
    });
  });

  describe('reverse', () => {
    it("answers a wallet's primary domain", async () => {
      expect(await provider().reverse(alice.publicKey.toBase58())).toBe('alice.sol');
    });

    it('names a primary subdomain through both reverse accounts', async () => {
      expect(await provider().reverse(bob.publicKey.toBase58())).toBe('shop.alice.sol');
    });

    it('answers null for a primary domain the wallet no longer owns, no primary, or a non-Solana address', async () => {
      expect(await provider().reverse(carol.publicKey.toBase58())).toBeNull();
      expect(await provider().reverse(Keypair.generate().publicKey.toBase58())).toBeNull();
      expect(await provider().reverse('0x00000000000000000000000000000000000000ff')).toBeNull();
    });
  });

  describe('records', () => {
    it('returns owner, typed text records, avatar and chain addresses', async () => {
      const record = await provider().records('alice.sol');
      expect(record).toEqual({
        name: 'alice.sol',
        ownerAddress: alice.publicKey.toBase58(),
        caip2Id: 'solana:mainnet-beta',
        avatar: 'https://img.example/alice.png',
        expireAt: null,
        registeredAt: null,
        multichainAddresses: [
          { address: alice.publicKey.toBase58(), caip2Id: 'solana:mainnet-beta' },
          { address: '0xc0ffee254729296a45a3885639AC7E10F9d54979', caip2Id: 'eip155:1' },
          { address: '0x0000000000000000000000000000000000001004', caip2Id: 'eip155:56' },
        ],
        txtRecords: [
          { key: 'url', value: 'https://alice.example', type: 'url' },
          { key: 'email', value: 'alice@example.com', type: 'email' },
          { key: 'twitter', value: 'alice_sol', type: 'social' },
          { key: 'github', value: 'alice-gh', type: 'social' },
        ],
      });
    });

    it('reads Records V2 first, ignores stale ones and falls back to V1', async () => {
      const record = await provider().records('vtwo.sol');
      expect(record).toEqual({
        name: 'vtwo.sol',
        ownerAddress: erin.publicKey.toBase58(),
        caip2Id: 'solana:mainnet-beta',
        // Carol's picture is stale and Dave has none.
        avatar: null,
        expireAt: null,
        registeredAt: null,
        multichainAddresses: [
          { address: erin.publicKey.toBase58(), caip2Id: 'solana:mainnet-beta' },
          { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', caip2Id: 'eip155:1' },
        ],
        txtRecords: [
          { key: 'url', value: 'https://dave.example', type: 'url' },
          { key: 'twitter', value: 'dave_v2', type: 'social' },
          { key: 'github', value: 'dave-gh', type: 'social' },
          { key: 'discord', value: 'dave#0002', type: 'social' },
        ],
      });
    });

    it('reads the domain, its NFT record and every record in one getMultipleAccounts call', async () => {
      const before = rpc.calls.length;
      await provider().records('alice.sol');
      const calls = rpc.calls.slice(before);
      expect(calls.map((c) => c.method)).toEqual(['getMultipleAccounts']);
    });

    it("reads a subdomain's own records", async () => {
      const record = await provider().records('shop.alice.sol');
      expect(record?.ownerAddress).toBe(bob.publicKey.toBase58());
      expect(record?.txtRecords).toEqual([{ key: 'discord', value: 'bob#0001', type: 'social' }]);
      expect(record?.avatar).toBeNull();
    });

    it('answers null for an unknown name', async () => {
      expect(await provider().records('nobody.sol')).toBeNull();
    });
  });

  it('has no candidates to list', async () => {
    expect(await provider().candidates('ali', 10)).toEqual([]);
  });

  describe('upstream failures', () => {
    it.each(['http500', 'rpcError'] as const)('turns %s into UpstreamError', async (mode) => {
      rpc.fail(mode);
      await expect(provider().resolve('alice.sol')).rejects.toBeInstanceOf(UpstreamError);
      await expect(provider().records('alice.sol')).rejects.toBeInstanceOf(UpstreamError);
      await expect(provider().reverse(alice.publicKey.toBase58())).rejects.toBeInstanceOf(UpstreamError);
    });

    it('gives up on a hanging RPC within the timeout', async () => {
      rpc.fail('hang');
      const started = performance.now();
      const error = await provider(300)
        .resolve('alice.sol')
        .catch((e: unknown) => e);
      const elapsed = performance.now() - started;
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(/within 300 ms/);
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1_500);
    });

    it("stops when the caller's signal aborts", async () => {
      rpc.fail('hang');
      const controller = new AbortController();
      const pending = provider(10_000).records('alice.sol', { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toThrow(/aborted/);
    });

    it('treats a name account not owned by the name program as a bad answer', async () => {
      const key = sns.domain('forged', alice.publicKey);
      const account = rpc.getAccount(key);
      if (!account) throw new Error('fixture missing');
      rpc.setAccount(key, { ...account, owner: Keypair.generate().publicKey });
      await expect(provider().resolve('forged.sol')).rejects.toBeInstanceOf(UpstreamError);
    });
  });
});
