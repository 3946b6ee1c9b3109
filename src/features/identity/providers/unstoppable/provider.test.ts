import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../../../test/support/anvil.js';
import { testAccount } from '../../../../../test/support/ens-deploy.js';
import { deployUns, type UnsTestbed } from '../../../../../test/support/uns-deploy.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import { expectRecord } from '../ens/ens.test-helper.js';
import type { NamingProvider } from '../types.js';
import { createUnstoppableProvider, UNSTOPPABLE_INFO } from './provider.js';

/**
 * The real UNSRegistry and ProxyReader (`@unstoppabledomains/uns` 1.0.17 artifacts) on two anvil
 * nodes standing in for Polygon (137) and Ethereum (1), read through the provider code that reads
 * mainnet, pointed at the deployed ProxyReaders.
 *
 * brad.crypto's records are UD's own example name as its libraries document it
 * (`@unstoppabledomains/resolution` README and resolution-swift tests: ETH
 * 0x8aaD44321A86b170879d7A244c1e8d360c99DdA8, BTC bc1q359khn0phg58xgezyqsuuaha28zkwx047c0c3y,
 * ipfs.html.value QmdyBw5oTgCtTLQ18PbDvPL8iaLoEPhSyzD91q9XmgmAjb); the token itself is minted to a
 * local account, so owner and ETH record differ here on purpose.
 */

const BRAD_ETH = '0x8aaD44321A86b170879d7A244c1e8d360c99DdA8';
const BRAD_BTC = 'bc1q359khn0phg58xgezyqsuuaha28zkwx047c0c3y';
const BRAD_IPFS = 'QmdyBw5oTgCtTLQ18PbDvPL8iaLoEPhSyzD91q9XmgmAjb';
// Any valid Solana public key (32 bytes in base58); made up for this test.
const SOL_KEY = 'HKKp49qGWXd639QsuH7JiLijfVW5UtCVY4s1n2HANwEA';
const STALE = testAccount(7).address;

let polygon: Anvil;
let ethereum: Anvil;
let l2: UnsTestbed;
let l1: UnsTestbed;
let provider: NamingProvider;

beforeAll(async () => {
  [polygon, ethereum] = await Promise.all([startAnvil({ chainId: 137 }), startAnvil({ chainId: 1 })]);
  [l2, l1] = await Promise.all([deployUns(polygon.rpcUrl), deployUns(ethereum.rpcUrl)]);
  for (const tld of ['crypto', 'x', 'wallet']) await Promise.all([l2.mintTld(tld), l1.mintTld(tld)]);

  await l2.mint({
    name: 'brad.crypto',
    owner: 1,
    withReverse: true,
    records: {
      'crypto.ETH.address': BRAD_ETH,
      'crypto.BTC.address': BRAD_BTC,
      'crypto.SOL.address': SOL_KEY,
      'crypto.MATIC.version.MATIC.address': BRAD_ETH,
      // Not an address: left out rather than shown.
      'crypto.BNB.version.BEP20.address': 'not-an-address',
      // A token's record names no chain of its own: not read.
      'crypto.USDT.version.ERC20.address': BRAD_ETH,
      'ipfs.html.value': BRAD_IPFS,
      'social.twitter.username': 'brad',
      'social.picture.value': 'https://example.com/brad.png',
      'whois.email.value': 'brad@example.com',
      'browser.redirect_url': 'https://brad.example',
    },
  });
  await l2.mint({ name: 'bare.x', owner: 2 });
  await l1.mint({ name: 'legacy.wallet', owner: 3, withReverse: true, records: { 'crypto.ETH.address': STALE } });
  // Bridged: the Polygon token is current, the Ethereum one (with its reverse record) is stale.
  await l2.mint({ name: 'moved.crypto', owner: 5, records: { 'crypto.ETH.address': testAccount(5).address } });
  await l1.mint({ name: 'moved.crypto', owner: 4, withReverse: true, records: { 'crypto.ETH.address': STALE } });

  provider = createUnstoppableProvider({
    polygonRpcUrl: polygon.rpcUrl,
    ethRpcUrl: ethereum.rpcUrl,
    polygonProxyReaderAddress: l2.proxyReader,
    ethProxyReaderAddress: l1.proxyReader,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([polygon?.stop(), ethereum?.stop()]);
});

describe('Unstoppable Domains provider on local UNS deployments', () => {
  it('describes itself as Unstoppable Domains, owning the UNS TLDs', () => {
    expect(provider.info).toEqual(UNSTOPPABLE_INFO);
    expect(provider.info).toMatchObject({ provider: 'unstoppable', source: 'unstoppable', caip2Id: 'eip155:137' });
    expect(provider.info.suffixes[0]).toBe('.crypto');
    expect(provider.info.suffixes).toEqual(expect.arrayContaining(['.x', '.nft', '.wallet', '.blockchain', '.888']));
    expect(provider.status).toEqual({ enabled: true });
  });

  it('reads every record of a Polygon name: owner, chain addresses, text records, avatar', async () => {
    expectRecord(await provider.records('Brad.Crypto'), {
      name: 'brad.crypto',
      ownerAddress: BRAD_ETH,
      caip2Id: 'eip155:137',
      avatar: 'https://example.com/brad.png',
      expireAt: null,
      registeredAt: null,
      multichainAddresses: [
        { address: BRAD_ETH, caip2Id: 'eip155:1' },
        { address: BRAD_ETH, caip2Id: 'eip155:137' },
        { address: SOL_KEY, caip2Id: 'solana:mainnet-beta' },
        { address: BRAD_BTC, caip2Id: 'bip122:000000000019d6689c085ae165831e93' },
      ],
      txtRecords: [
        { key: 'social.twitter.username', value: 'brad', type: 'social' },
        { key: 'social.picture.value', value: 'https://example.com/brad.png', type: 'url' },
        { key: 'whois.email.value', value: 'brad@example.com', type: 'email' },
        { key: 'browser.redirect_url', value: 'https://brad.example', type: 'url' },
        { key: 'ipfs.html.value', value: BRAD_IPFS, type: 'text' },
      ],
    });
    expect(await provider.resolve('brad.crypto')).toBe(BRAD_ETH);
  });

  it('answers the token owner for a name without address records', async () => {
    expectRecord(await provider.records('bare.x'), {
      name: 'bare.x',
      ownerAddress: testAccount(2).address,
      caip2Id: 'eip155:137',
      avatar: null,
      multichainAddresses: [],
      txtRecords: [],
    });
  });

  it('falls back to Ethereum for a name only there, and prefers Polygon for a bridged one', async () => {
    expectRecord(await provider.records('legacy.wallet'), {
      name: 'legacy.wallet',
      ownerAddress: STALE,
      caip2Id: 'eip155:1',
      multichainAddresses: [{ address: STALE, caip2Id: 'eip155:1' }],
      txtRecords: [],
    });
    expect(await provider.records('moved.crypto')).toMatchObject({
      caip2Id: 'eip155:137',
      ownerAddress: testAccount(5).address,
    });
  });

  it('answers null for names that are not minted', async () => {
    expect(await provider.records('nobody.crypto')).toBeNull();
    expect(await provider.resolve('nobody.x')).toBeNull();
  });

  it('refuses names UD cannot mint', () => {
    for (const bad of ['bad_name.crypto', '-dash.x', 'brad.eth', 'crypto', 'bråd.crypto']) {
      expect(() => provider.normalize(bad), bad).toThrow();
    }
    expect(provider.normalize('Sub.Brad.CRYPTO')).toBe('sub.brad.crypto');
  });

  it('reads reverse records, Polygon first, only when the claimant owns the name where it resolves', async () => {
    expect(await provider.reverse(testAccount(1).address)).toBe('brad.crypto');
    expect(await provider.reverse(testAccount(1).address, { coinType: 0x80000089 })).toBe('brad.crypto');
    expect(await provider.reverse(testAccount(3).address)).toBe('legacy.wallet');
    // account 4's claim is on the stale Ethereum token of a name that now lives on Polygon.
    expect(await provider.reverse(testAccount(4).address)).toBeNull();
    expect(await provider.reverse(testAccount(2).address)).toBeNull();
    expect(await provider.reverse('not-an-address')).toBeNull();
    // A Solana coin type asks for a name of another address format.
    expect(await provider.reverse(testAccount(1).address, { coinType: 501 })).toBeNull();
  });

  it('works with one chain configured', async () => {
    const ethOnly = createUnstoppableProvider({ ethRpcUrl: ethereum.rpcUrl, ethProxyReaderAddress: l1.proxyReader });
    expect(await ethOnly.records('brad.crypto')).toBeNull();
    expect(await ethOnly.records('moved.crypto')).toMatchObject({ caip2Id: 'eip155:1', ownerAddress: STALE });
  });

  it('fails with an UpstreamError when the preferred chain does not answer', async () => {
    const deadPolygon = createUnstoppableProvider({
      polygonRpcUrl: 'http://127.0.0.1:9',
      ethRpcUrl: ethereum.rpcUrl,
      ethProxyReaderAddress: l1.proxyReader,
      timeoutMs: 500,
    });
    await expect(deadPolygon.records('legacy.wallet')).rejects.toBeInstanceOf(UpstreamError);
    await expect(deadPolygon.reverse(testAccount(3).address)).rejects.toBeInstanceOf(UpstreamError);
  });

  it('is disabled without an RPC URL', async () => {
    const disabled = createUnstoppableProvider({});
    expect(disabled.status).toEqual({
      enabled: false,
      reason: 'UNS_POLYGON_RPC_URL or UNS_ETH_RPC_URL is not set',
    });
    await expect(disabled.records('brad.crypto')).rejects.toBeInstanceOf(UpstreamError);
  });
});
