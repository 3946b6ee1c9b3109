import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SuiGraphqlStandin, startSuiGraphqlStandin } from '../../../../../test/support/sui-graphql-standin.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { createSuinsProvider } from './provider.js';

/**
 * SuiNS against the loopback Sui GraphQL stand-in (test/support/sui-graphql-standin.ts). Fixture shapes:
 * the `NameRecord` GraphQL type and `Address.defaultNameRecord` from docs.sui.io's GraphQL reference and
 * MystenLabs/sui crates/sui-indexer-alt-graphql (name_record.rs: expired names and leaves of expired or
 * re-registered parents answer null); the record's Move fields (nft_id, expiration_timestamp_ms,
 * target_address, data) from MystenLabs/sui crates/sui-name-service; the user-data keys `avatar`,
 * `content_hash`, `walrus_site_id` from `@mysten/suins` (ALLOWED_METADATA).
 */

const ALICE = `0x${'a1'.repeat(32)}`;
const BOB = `0x${'b2'.repeat(32)}`;
const CAROL = `0x${'c3'.repeat(32)}`;
const YEAR = 365 * 86_400_000;
const ALICE_EXPIRY = Math.floor((Date.now() + YEAR) / 1000) * 1000;

let sui: SuiGraphqlStandin;
let suins: ReturnType<typeof createSuinsProvider>;

beforeAll(async () => {
  sui = await startSuiGraphqlStandin();
  sui.setName('alice.sui', {
    target: ALICE,
    expirationMs: ALICE_EXPIRY,
    data: {
      avatar: 'https://img.example/alice.png',
      content_hash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      walrus_site_id: '0x5ac988828a0c9842d91e6d5bdd9552ec9fcdddf11c56bf82dff6d5566685a31e',
    },
  });
  // A leaf subname: expiry 0, alive while its parent is.
  sui.setName('pay.alice.sui', { target: BOB, expirationMs: 0 });
  // Its avatar is an NFT's object id, not a URL.
  sui.setName('nft.sui', {
    target: CAROL,
    expirationMs: Date.now() + YEAR,
    data: { avatar: '0x0f2a1c1a8ad1b1a5c2bba0d4f94d8d3a1ce0c68f5b79d3a0b4c9c8e9d7f6e5d4' },
  });
  sui.setName('nowhere.sui', { target: null, expirationMs: Date.now() + YEAR });
  sui.setName('gone.sui', { target: CAROL, expirationMs: Date.now() - 86_400_000 });
  sui.setDefault(ALICE, 'alice.sui');
  sui.setDefault(BOB, 'pay.alice.sui');
  // A default name whose record now points elsewhere.
  sui.setDefault(CAROL, 'alice.sui');
  suins = createSuinsProvider({ graphqlUrl: sui.url, timeoutMs: 2000 });
});
afterAll(() => sui?.close());

describe('SuiNS provider', () => {
  it('resolves names and leaf subnames through nameRecord(name)', async () => {
    expect(await suins.resolve('alice.sui')).toBe(ALICE);
    expect(sui.requests.at(-1)?.variables).toEqual({ name: 'alice.sui' });
    expect(sui.requests.at(-1)?.query).toMatch(/nameRecord\(name: \$name\)/);
    expect(await suins.resolve('PAY.alice.sui')).toBe(BOB);
  });

  it('reads the record: target, expiry, avatar and the user data as text records', async () => {
    expect(await suins.records('alice.sui')).toEqual({
      name: 'alice.sui',
      ownerAddress: ALICE,
      caip2Id: 'sui:mainnet',
      avatar: 'https://img.example/alice.png',
      expireAt: new Date(ALICE_EXPIRY),
      registeredAt: null,
      multichainAddresses: [{ address: ALICE, caip2Id: 'sui:mainnet' }],
      txtRecords: [
        {
          key: 'content_hash',
          value: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
          type: 'text',
        },
        {
          key: 'walrus_site_id',
          value: '0x5ac988828a0c9842d91e6d5bdd9552ec9fcdddf11c56bf82dff6d5566685a31e',
          type: 'text',
        },
      ],
    });
    // A leaf's expiry is its parent's.
    expect((await suins.records('pay.alice.sui'))?.expireAt).toEqual(new Date(ALICE_EXPIRY));
    const nft = await suins.records('nft.sui');
    expect(nft?.avatar).toBeNull();
    expect(nft?.txtRecords).toEqual([
      { key: 'avatar', value: '0x0f2a1c1a8ad1b1a5c2bba0d4f94d8d3a1ce0c68f5b79d3a0b4c9c8e9d7f6e5d4', type: 'text' },
    ]);
    expect(await suins.records('nowhere.sui')).toMatchObject({ ownerAddress: null, multichainAddresses: [] });
  });

  it('answers the default name of an address while the name still points at it', async () => {
    expect(await suins.reverse(ALICE)).toBe('alice.sui');
    expect(sui.requests.at(-1)?.query).toMatch(/defaultNameRecord/);
    expect(sui.requests.at(-1)?.variables).toEqual({ address: ALICE });
    expect(await suins.reverse(BOB)).toBe('pay.alice.sui');
    expect(await suins.reverse(CAROL)).toBeNull();
    expect(await suins.reverse(`0x${'d4'.repeat(32)}`)).toBeNull();
    const before = sui.requests.length;
    expect(await suins.reverse('0x00000000000000000000000000000000000a11ce')).toBeNull();
    expect(sui.requests.length).toBe(before);
  });

  it('answers null for unknown and expired names, also when the server serves an expired record', async () => {
    expect(await suins.records('nobody.sui')).toBeNull();
    expect(await suins.records('gone.sui')).toBeNull();
    sui.serveExpired(true);
    try {
      expect(await suins.resolve('gone.sui')).toBeNull();
      expect(await suins.records('gone.sui')).toBeNull();
      // A leaf of an expired parent is expired too.
      sui.setName('old.sui', { target: CAROL, expirationMs: Date.now() - 1000 });
      sui.setName('sub.old.sui', { target: CAROL, expirationMs: 0 });
      expect(await suins.records('sub.old.sui')).toBeNull();
    } finally {
      sui.serveExpired(false);
    }
  });

  it('refuses names SuiNS cannot hold, in normalize, without asking the server', async () => {
    expect(suins.normalize(' Alice.SUI ')).toBe('alice.sui');
    expect(suins.normalize('a.b.c.sui')).toBe('a.b.c.sui');
    for (const bad of ['alice.eth', '.sui', '-a.sui', 'a-.sui', 'a_b.sui', 'a..b.sui', `${'x'.repeat(64)}.sui`]) {
      expect(() => suins.normalize(bad), bad).toThrow();
    }
    const before = sui.requests.length;
    expect(await suins.records('a_b.sui')).toBeNull();
    expect(sui.requests.length).toBe(before);
  });

  it('reports HTTP failures and GraphQL errors as upstream errors, not as absent names', async () => {
    sui.failWith('Query is too complex');
    try {
      await expect(suins.records('alice.sui')).rejects.toThrow(/Query is too complex/);
    } finally {
      sui.failWith(null);
    }
    sui.failWith(400);
    try {
      await expect(suins.reverse(ALICE)).rejects.toBeInstanceOf(UpstreamError);
    } finally {
      sui.failWith(null);
    }
  });
});
