import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../test/support/anvil.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { closedPortUrl } from '../../../test/support/closed-port.js';
import { deployEns, testAccount } from '../../../test/support/ens-deploy.js';
import { postGraphql } from '../../../test/support/graphql.js';
import { evmCoinType } from '../../platform/chains/registry.js';

/**
 * `evmPrimaryName` end to end: GraphQL → identity subgraph → the ENS and Basenames providers on a real
 * node, with ENSIP-19 records (`default.reverse`, per-chain namespaces) and forward verification.
 */

const dave = testAccount(4).address;
const erin = testAccount(5).address;
const frank = testAccount(6).address;
const basey = testAccount(3).address;
const nobody = testAccount(7).address;
const OPTIMISM = evmCoinType(10);
const BASE = evmCoinType(8453);

let anvil: Anvil;
let app: TestApp;
let deadApp: TestApp;

beforeAll(async () => {
  anvil = await startAnvil();
  const ens = await deployEns(anvil.rpcUrl);
  const defaultReverse = await ens.deployDefaultReverseResolver();
  await ens.registerName({
    name: 'dave.eth',
    address: dave,
    coinAddresses: { [OPTIMISM]: dave.toLowerCase() as Address },
  });
  await ens.registerName({ name: 'frank.eth', address: frank });
  await ens.setDefaultPrimaryName(defaultReverse, 4, 'dave.eth');
  await ens.setDefaultPrimaryName(defaultReverse, 5, 'dave.eth'); // not erin's: must not verify
  await ens.setPrimaryName(6, 'frank.eth');

  // Basenames: its own registry, with a primary name under Base's reverse namespace only.
  const basenames = await deployEns(anvil.rpcUrl);
  await basenames.registerName({ name: 'basey.base.eth', coinAddresses: { [BASE]: basey.toLowerCase() as Address } });
  await basenames.setReverseRecord({ namespace: '80002105.reverse', address: basey, name: 'basey.base.eth' });

  const deadRpcUrl = await closedPortUrl();

  [app, deadApp] = await Promise.all([
    startTestApp({
      ENS_RPC_URL: anvil.rpcUrl,
      ENS_REGISTRY_ADDRESS: ens.registry,
      BASE_RPC_URL: anvil.rpcUrl,
      BASENAMES_REGISTRY_ADDRESS: basenames.registry,
      PROVIDER_TIMEOUT_MS: '1500',
    }),
    startTestApp({ ENS_RPC_URL: deadRpcUrl, PROVIDER_TIMEOUT_MS: '500' }),
  ]);
});

afterAll(async () => {
  await Promise.all([app?.stop(), deadApp?.stop()]);
  await anvil?.stop();
});

const QUERY = `query($address: String!, $chainId: Int) {
  evmPrimaryName(address: $address, chainId: $chainId) { name address chainId provider }
}`;

async function primaryName(target: TestApp, apiKey: string | undefined, variables: Record<string, unknown>) {
  const res = await postGraphql(target, { query: QUERY, variables }, apiKey);
  return res.json() as {
    data?: { evmPrimaryName: { name: string; address: string; chainId: number; provider: string } | null } | null;
    errors?: { extensions: { code: string } }[];
  };
}

const balance = async (target: TestApp, apiKey: string) =>
  (await target.http.inject({ method: 'GET', url: '/partners/stats', headers: { 'x-api-key': apiKey } })).json()
    .creditBalance as number;

describe('evmPrimaryName', () => {
  it('answers a default.reverse-only primary name, verified, for free', async () => {
    const { apiKey } = await app.partner(5);
    const body = await primaryName(app, apiKey, { address: dave.toLowerCase() });
    expect(body.errors).toBeUndefined();
    expect(body.data?.evmPrimaryName).toEqual({ name: 'dave.eth', address: dave, chainId: 1, provider: 'ens' });
    expect(await balance(app, apiKey)).toBe(5);
  });

  it('answers null for a claim that does not resolve back, and for an address without one', async () => {
    const { apiKey } = await app.partner(5);
    expect((await primaryName(app, apiKey, { address: erin })).data?.evmPrimaryName).toBeNull();
    expect((await primaryName(app, apiKey, { address: nobody })).data?.evmPrimaryName).toBeNull();
    expect(await balance(app, apiKey)).toBe(5);
  });

  it('verifies against the chain asked for', async () => {
    const { apiKey } = await app.partner(5);
    expect((await primaryName(app, apiKey, { address: dave, chainId: 10 })).data?.evmPrimaryName).toMatchObject({
      name: 'dave.eth',
      chainId: 10,
    });
    // frank.eth has an Ethereum record only; his addr.reverse claim is for Ethereum.
    expect((await primaryName(app, apiKey, { address: frank })).data?.evmPrimaryName?.name).toBe('frank.eth');
    expect((await primaryName(app, apiKey, { address: frank, chainId: 10 })).data?.evmPrimaryName).toBeNull();
  });

  it('asks the naming service of the chain itself when ENS has no primary name there', async () => {
    const { apiKey } = await app.partner(5);
    expect((await primaryName(app, apiKey, { address: basey, chainId: 8453 })).data?.evmPrimaryName).toEqual({
      name: 'basey.base.eth',
      address: basey,
      chainId: 8453,
      provider: 'basenames',
    });
  });

  it('refuses bad input with BAD_USER_INPUT and anonymous callers, free of charge', async () => {
    const { apiKey } = await app.partner(5);
    for (const variables of [
      { address: 'vitalik.eth' },
      { address: '0x1234' },
      { address: dave, chainId: 0 },
      { address: dave, chainId: -5 },
    ]) {
      const body = await primaryName(app, apiKey, variables);
      expect(body.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(await balance(app, apiKey)).toBe(5);
    expect((await primaryName(app, undefined, { address: dave })).errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('reports a dead RPC node as UPSTREAM_UNAVAILABLE quickly, free of charge', async () => {
    const { apiKey } = await deadApp.partner(5);
    const started = Date.now();
    const body = await primaryName(deadApp, apiKey, { address: dave });
    expect(body.errors?.[0]?.extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await balance(deadApp, apiKey)).toBe(5);
  });
});
