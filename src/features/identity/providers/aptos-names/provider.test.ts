import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FullnodeStandin, startFullnodeStandin } from '../../../../../test/support/aptos-fullnode-standin.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { ANS_MAINNET_ROUTER } from './info.js';
import { createAptosNamesProvider } from './provider.js';

/**
 * Aptos Names against the loopback fullnode stand-in. The wire shapes are the router's as the Aptos REST
 * API serves them: `POST /v1/view` with `{function, type_arguments, arguments}`, the name split into
 * `domain` and `Option<String>` subdomain (`{"vec": []}`), answers `[{"vec":["0x…"]}]`, `["<u64 secs>"]`
 * and `[{"vec":[sub]},{"vec":[domain]}]` for the primary name, and an `AptosError` 400 when
 * `get_expiration` aborts for an unregistered name — view signatures from aptos-labs/aptos-names-contracts
 * router/sources/router.move, argument split and router address from `@aptos-labs/ts-sdk`
 * src/internal/ans.ts.
 */

const ALICE = `0x${'a1'.repeat(32)}`;
const BOB = `0x${'b2'.repeat(32)}`;
const CAROL = `0x${'c3'.repeat(32)}`;
const FUTURE = Math.floor(Date.now() / 1000) + 365 * 86_400;
const PAST = Math.floor(Date.now() / 1000) - 86_400;

let node: FullnodeStandin;
let ans: ReturnType<typeof createAptosNamesProvider>;

beforeAll(async () => {
  // The provider defaults to the mainnet router; the stand-in serves the views at that address.
  node = await startFullnodeStandin({ moduleAddress: ANS_MAINNET_ROUTER, chainId: 1 });
  node.setName('alice', null, { target: ALICE, owner: ALICE, expiration: FUTURE });
  node.setName('alice', 'pay', { target: BOB, owner: ALICE, expiration: FUTURE });
  node.setName('bare', null, { target: null, owner: CAROL, expiration: FUTURE });
  node.setName('gone', null, { target: CAROL, owner: CAROL, expiration: PAST });
  // An expired v1 name, whose target the router still answers.
  node.setName('old', null, { target: CAROL, owner: CAROL, expiration: PAST, v1: true });
  // The router answers the target short (leading zeros dropped) as the API may.
  node.setName('short', null, { target: '0x1', owner: CAROL, expiration: FUTURE });
  node.setPrimary(ALICE, { domain: 'alice', subdomain: null });
  node.setPrimary(BOB, { domain: 'alice', subdomain: 'pay' });
  // A primary name left behind on an address the name no longer resolves to.
  node.setPrimary(CAROL, { domain: 'alice', subdomain: null });
  ans = createAptosNamesProvider({ rpcUrl: node.url, timeoutMs: 2000 });
});
afterAll(() => node?.close());

describe('Aptos Names provider', () => {
  it('resolves a name and a subdomain through get_target_addr and get_expiration', async () => {
    expect(await ans.resolve('alice.apt')).toBe(ALICE);
    const asked = node.viewRequests.slice(-2).map((r) => r.function.split('::').at(-1));
    expect(asked.sort()).toEqual(['get_expiration', 'get_target_addr']);
    expect(node.viewRequests.at(-1)).toMatchObject({ type_arguments: [], arguments: ['alice', { vec: [] }] });
    expect(await ans.resolve('pay.alice.apt')).toBe(BOB);
    expect(node.viewRequests.at(-1)?.arguments).toEqual(['alice', { vec: ['pay'] }]);
    expect(await ans.resolve('short.apt')).toBe(`0x${'0'.repeat(63)}1`);
  });

  it('reads the record: target as owner and address, expiry; the router keeps no text records', async () => {
    expect(await ans.records('Alice.APT')).toEqual({
      name: 'alice.apt',
      ownerAddress: ALICE,
      caip2Id: 'aptos:1',
      avatar: null,
      expireAt: new Date(FUTURE * 1000),
      registeredAt: null,
      multichainAddresses: [{ address: ALICE, caip2Id: 'aptos:1' }],
      txtRecords: [],
    });
    // Registered without a target: found, with no address.
    expect(await ans.records('bare.apt')).toMatchObject({
      name: 'bare.apt',
      ownerAddress: null,
      multichainAddresses: [],
    });
  });

  it('answers the primary name of an address only while the name resolves back to it', async () => {
    expect(await ans.reverse(ALICE)).toBe('alice.apt');
    expect(await ans.reverse(BOB.toUpperCase().replace('0X', '0x'))).toBe('pay.alice.apt');
    expect(await ans.reverse(CAROL)).toBeNull();
    expect(await ans.reverse(`0x${'d4'.repeat(32)}`)).toBeNull();
    // Not an Aptos account address: nothing is asked.
    const before = node.viewRequests.length;
    expect(await ans.reverse('0x00000000000000000000000000000000000a11ce')).toBeNull();
    expect(await ans.reverse('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')).toBeNull();
    expect(node.viewRequests.length).toBe(before);
  });

  it('answers null for unregistered names (get_expiration aborts) and expired ones', async () => {
    expect(await ans.records('nobody.apt')).toBeNull();
    expect(await ans.resolve('nobody.apt')).toBeNull();
    expect(await ans.records('gone.apt')).toBeNull();
    expect(await ans.resolve('gone.apt')).toBeNull();
    expect(await ans.records('old.apt')).toBeNull();
    expect(await ans.resolve('old.apt')).toBeNull();
  });

  it('refuses names the router cannot hold, in normalize, without asking the node', async () => {
    expect(ans.normalize(' Alice.Apt ')).toBe('alice.apt');
    for (const bad of [
      'al.apt',
      'a.b.c.apt',
      '-alice.apt',
      'alice-.apt',
      'al_ice.apt',
      'alice.eth',
      '.apt',
      `${'x'.repeat(64)}.apt`,
    ]) {
      expect(() => ans.normalize(bad), bad).toThrow();
    }
    const before = node.viewRequests.length;
    expect(await ans.records('al.apt')).toBeNull();
    expect(node.viewRequests.length).toBe(before);
  });

  it('reports a failing fullnode as an upstream error, not as an absent name', async () => {
    node.failWith(503);
    try {
      await expect(ans.records('alice.apt')).rejects.toBeInstanceOf(UpstreamError);
      await expect(ans.reverse(ALICE)).rejects.toThrow(/aptos-names/);
    } finally {
      node.failWith(null);
    }
  });

  it('reads another router when APTOS_NAMES_ROUTER_ADDRESS points elsewhere', async () => {
    const testnet = await startFullnodeStandin({
      moduleAddress: '0x5f8fd2347449685cf41d4db97926ec3a096eaf381332be4f1318ad4d16a8497c',
    });
    try {
      testnet.setName('alice', null, { target: BOB, owner: BOB, expiration: FUTURE });
      const other = createAptosNamesProvider({
        rpcUrl: testnet.url,
        routerAddress: '0x5f8fd2347449685cf41d4db97926ec3a096eaf381332be4f1318ad4d16a8497c',
        timeoutMs: 2000,
      });
      expect(await other.resolve('alice.apt')).toBe(BOB);
    } finally {
      await testnet.close();
    }
  });
});
