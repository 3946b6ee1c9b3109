import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/app.js';
import { type FullnodeStandin, startFullnodeStandin } from '../../../../test/support/aptos-fullnode-standin.js';
import { type SuiGraphqlStandin, startSuiGraphqlStandin } from '../../../../test/support/sui-graphql-standin.js';
import { importNames } from '../../resolution/index.js';
import { ANS_MAINNET_ROUTER } from '../providers/aptos-names/info.js';

/**
 * Identity search end to end for Aptos Names and SuiNS: REST → gateway → identity subgraph → the real
 * providers, aimed at the Aptos fullnode stand-in (the ANS router's views, shapes from aptos-names-contracts
 * router.move and `@aptos-labs/ts-sdk` src/internal/ans.ts) and the Sui GraphQL stand-in (`nameRecord`,
 * `defaultNameRecord`, shapes from docs.sui.io's GraphQL reference and MystenLabs/sui's name service
 * crates), beside MNS filled through `names:import`.
 */

const SPEC_FIELDS = [
  'avatar',
  'caip2Id',
  'expireAt',
  'logoURI',
  'multichainAddresses',
  'name',
  'ownerAddress',
  'provider',
  'providerName',
  'registeredAt',
  'source',
  'txtRecords',
  'url',
];

const MOVE_ALICE = `0x${'0'.repeat(59)}a11ce`;
const APT_ALICE = `0x${'a7'.repeat(32)}`;
const SUI_ALICE = `0x${'5a'.repeat(32)}`;
const APT_EXPIRY = Math.floor(Date.parse('2031-05-04T03:02:01Z') / 1000);
const SUI_EXPIRY = Date.parse('2030-01-02T03:04:05Z');

let node: FullnodeStandin;
let sui: SuiGraphqlStandin;
let app: TestApp;

beforeAll(async () => {
  [node, sui] = await Promise.all([
    startFullnodeStandin({ moduleAddress: ANS_MAINNET_ROUTER, chainId: 1 }),
    startSuiGraphqlStandin(),
  ]);
  node.setName('alice', null, { target: APT_ALICE, owner: APT_ALICE, expiration: APT_EXPIRY });
  node.setPrimary(APT_ALICE, { domain: 'alice', subdomain: null });
  sui.setName('alice.sui', {
    target: SUI_ALICE,
    expirationMs: SUI_EXPIRY,
    data: {
      avatar: 'https://img.example/alice-sui.png',
      content_hash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    },
  });
  sui.setDefault(SUI_ALICE, 'alice.sui');

  app = await startTestApp({ APTOS_RPC_URL: node.url, SUI_GRAPHQL_URL: sui.url, PROVIDER_TIMEOUT_MS: '3000' });
  const summary = await importNames(app.services.db, [
    JSON.stringify({ name: 'alice.snow', caip2Id: 'move-mvmt:126', owner: MOVE_ALICE }),
  ]);
  expect(summary.errors).toEqual([]);
  // Warm the gateway's query plans with a search neither stand-in takes part in.
  const { apiKey } = await app.partner(1);
  expect((await search(apiKey, 'alice.snow')).statusCode).toBe(200);
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([node?.close(), sui?.close()]);
});

const search = (apiKey: string, query: string) =>
  app.http.inject({
    method: 'GET',
    url: '/partners/cip/identity/search',
    query: { query },
    headers: { 'x-api-key': apiKey },
  });
const credits = async (apiKey: string) =>
  (await app.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json() as {
    creditBalance: number;
    creditUsage: number;
  };

describe('identity search over Aptos Names and SuiNS', () => {
  it('resolves a .apt name from the ANS router: owner, address on Aptos, expiry, for 1 credit', async () => {
    const { apiKey } = await app.partner(5);
    const res = await search(apiKey, 'Alice.apt');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.pagination).toMatchObject({ total: 1, totalIsExact: true });
    expect(Object.keys(body.results[0]).sort()).toEqual(SPEC_FIELDS);
    expect(body.results[0]).toEqual({
      name: 'alice.apt',
      ownerAddress: APT_ALICE,
      source: 'ans',
      provider: 'aptos-names',
      providerName: 'Aptos Names',
      caip2Id: 'aptos:1',
      avatar: null,
      logoURI: 'https://github.com/aptos-labs.png',
      url: 'https://www.aptosnames.com/',
      expireAt: new Date(APT_EXPIRY * 1000).toISOString(),
      registeredAt: null,
      // The router keeps no text records; the chain registry does not describe Aptos.
      multichainAddresses: [{ address: APT_ALICE, caip2Id: 'aptos:1', chainName: null, symbol: null }],
      txtRecords: [],
    });
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('resolves a .sui name over Sui GraphQL: target, avatar and user data as text records', async () => {
    const { apiKey } = await app.partner(5);
    const res = await search(apiKey, 'alice.sui');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([
      {
        name: 'alice.sui',
        ownerAddress: SUI_ALICE,
        source: 'suins',
        provider: 'suins',
        providerName: 'SuiNS',
        caip2Id: 'sui:mainnet',
        avatar: 'https://img.example/alice-sui.png',
        logoURI: 'https://token-image.suins.io/icon.svg',
        url: 'https://suins.io/',
        expireAt: new Date(SUI_EXPIRY).toISOString(),
        registeredAt: null,
        multichainAddresses: [{ address: SUI_ALICE, caip2Id: 'sui:mainnet', chainName: null, symbol: null }],
        txtRecords: [
          {
            key: 'content_hash',
            value: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
            type: 'text',
          },
        ],
      },
    ]);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('includes both in a bare label search, after MNS', async () => {
    const { apiKey } = await app.partner(5);
    const res = await search(apiKey, 'alice');
    expect(res.statusCode, res.body).toBe(200);
    const names = res.json().results.map((r: { name: string; provider: string }) => [r.name, r.provider]);
    expect(names).toEqual([
      ['alice.snow', 'mns'],
      ['alice.apt', 'aptos-names'],
      ['alice.sui', 'suins'],
    ]);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });

  it('finds the primary name of an Aptos address and the default name of a Sui address', async () => {
    const { apiKey } = await app.partner(5);
    const apt = await search(apiKey, APT_ALICE);
    expect(apt.statusCode, apt.body).toBe(200);
    expect(apt.json().results.map((r: { name: string }) => r.name)).toEqual(['alice.apt']);
    const onSui = await search(apiKey, SUI_ALICE);
    expect(onSui.statusCode, onSui.body).toBe(200);
    expect(onSui.json().results.map((r: { name: string }) => r.name)).toEqual(['alice.sui']);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 3, creditUsage: 2 }));
  });

  it('answers an unknown or invalid name without charging for the invalid one', async () => {
    const { apiKey } = await app.partner(5);
    const unknown = await search(apiKey, 'nobody.sui');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().results).toEqual([]);
    const invalid = await search(apiKey, 'al.apt');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toMatch(/not a valid Aptos Names name/);
    const badSui = await search(apiKey, 'a_b.sui');
    expect(badSui.statusCode).toBe(400);
    expect(await credits(apiKey)).toEqual(expect.objectContaining({ creditBalance: 4, creditUsage: 1 }));
  });
});
