import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { closedPortUrl } from '../../../test/support/closed-port.js';
import { postGraphql } from '../../../test/support/graphql.js';
import { loadConfig } from '../../platform/config.js';
import { enabled } from '../../platform/upstream/status.js';
import { startupSummary } from '../../startup-summary.js';
import { evmPrimaryName } from './evm-primary-name.js';
import { namingProviders, namingProvidersFromConfig } from './provider-registry.js';
import { BASENAMES_INFO } from './providers/basenames/info.js';
import { createUnconfiguredProvider } from './providers/disabled.js';
import { ENS_INFO } from './providers/ens/info.js';
import { FARCASTER_INFO } from './providers/farcaster/info.js';
import { LENS_INFO } from './providers/lens/info.js';
import { SNS_PROVIDER_INFO } from './providers/sns/info.js';
import type { NamingProvider, NamingProviderInfo } from './providers/types.js';

const states = (list: { info: { provider: string }; status: { enabled: boolean; reason?: string } }[]) =>
  list.map(({ info, status }) => [info.provider, status.enabled ? 'enabled' : `disabled: ${status.reason}`]);

describe('namingProvidersFromConfig', () => {
  it('lists every naming provider, each disabled with the setting it lacks when nothing is configured', async () => {
    const providers = await namingProvidersFromConfig(loadConfig({}));
    expect(states([...providers.all])).toEqual([
      ['ens', 'disabled: ENS_RPC_URL is not set'],
      ['basenames', 'disabled: BASE_RPC_URL is not set'],
      ['sns', 'disabled: SOLANA_RPC_URL is not set'],
      ['unstoppable', 'disabled: UNS_POLYGON_RPC_URL or UNS_ETH_RPC_URL is not set'],
      ['spaceid', 'disabled: SPACEID_BSC_RPC_URL or SPACEID_ARB_RPC_URL is not set'],
      ['aptos-names', 'disabled: APTOS_RPC_URL is not set'],
      ['suins', 'disabled: SUI_GRAPHQL_URL is not set'],
      ['farcaster', 'disabled: FARCASTER_HUB_URL is not set'],
      ['lens', 'disabled: LENS_API_URL is not set'],
    ]);
    expect(providers.enabled()).toEqual([]);
  });

  it('enables Farcaster with a hub (the fname registry defaults to Farcaster’s) and Lens with its API', async () => {
    const config = loadConfig({
      FARCASTER_HUB_URL: 'http://127.0.0.1:2281',
      LENS_API_URL: 'http://127.0.0.1:9/graphql',
    });
    expect(config.naming.farcasterFnameUrl).toBe('https://fnames.farcaster.xyz');
    const providers = await namingProvidersFromConfig(config);
    expect(providers.enabled().map((p) => p.info.provider)).toEqual(['farcaster', 'lens']);
    expect(() => loadConfig({ FARCASTER_HUB_URL: 'ftp://hub' })).toThrow(/FARCASTER_HUB_URL/);
    expect(() => loadConfig({ LENS_API_URL: 'not a url' })).toThrow(/LENS_API_URL/);
  });
});

describe('routing rules of the registry', () => {
  const registry = namingProviders(
    [ENS_INFO, BASENAMES_INFO, SNS_PROVIDER_INFO, FARCASTER_INFO, LENS_INFO].map((info) =>
      createUnconfiguredProvider(info, 'test'),
    ),
  );
  const owner = (name: string) => registry.owning(name)?.info.provider;

  it('gives a name to its namespace prefix first, else to its longest suffix', () => {
    expect(owner('lens/stani')).toBe('lens');
    expect(owner('Stani.Lens')).toBe('lens');
    expect(owner('farcaster/vitalik.eth')).toBe('farcaster');
    expect(owner('dwr.fcast.id')).toBe('farcaster');
    expect(owner('vitalik.eth')).toBe('ens');
    expect(owner('jesse.base.eth')).toBe('basenames');
    expect(owner('lens/')).toBeUndefined();
    expect(owner('dwr')).toBeUndefined();
  });

  it('makes a bare label each provider’s name: under its suffix, or as it is for Farcaster', () => {
    const name = (id: string) => {
      const provider = registry.byId(id);
      if (!provider) throw new Error(`no provider ${id}`);
      return registry.bareName(provider, 'dwr');
    };
    expect(['ens', 'basenames', 'sns', 'farcaster', 'lens'].map(name)).toEqual([
      'dwr.eth',
      'dwr.base.eth',
      'dwr.sol',
      'dwr',
      'dwr.lens',
    ]);
  });
});

describe('naming providers as an operator sees them', () => {
  let app: TestApp;
  beforeAll(async () => {
    const closed = await closedPortUrl();
    app = await startTestApp({ FARCASTER_HUB_URL: closed, FARCASTER_FNAME_URL: closed });
  });
  afterAll(() => app?.stop());

  it('says the same in GraphQL namingProviders, /readyz and the start-up line', async () => {
    const { apiKey } = await app.partner(1);
    const graphql = (
      await postGraphql(app, { query: '{ namingProviders { provider enabled reason } }' }, apiKey)
    ).json().data.namingProviders as { provider: string; enabled: boolean; reason: string | null }[];
    const listed = graphql.map((p) => [p.provider, p.enabled ? 'enabled' : `disabled: ${p.reason}`]);
    expect(listed).toEqual([
      ['mns', 'enabled'],
      ['ens', 'disabled: ENS_RPC_URL is not set'],
      ['basenames', 'disabled: BASE_RPC_URL is not set'],
      ['sns', 'disabled: SOLANA_RPC_URL is not set'],
      ['unstoppable', 'disabled: UNS_POLYGON_RPC_URL or UNS_ETH_RPC_URL is not set'],
      ['spaceid', 'disabled: SPACEID_BSC_RPC_URL or SPACEID_ARB_RPC_URL is not set'],
      ['aptos-names', 'disabled: APTOS_RPC_URL is not set'],
      ['suins', 'disabled: SUI_GRAPHQL_URL is not set'],
      ['farcaster', 'enabled'],
      ['lens', 'disabled: LENS_API_URL is not set'],
    ]);

    const readyz = await app.http.inject({ method: 'GET', url: '/readyz' });
    expect(readyz.statusCode).toBe(200);
    expect(Object.entries(readyz.json().naming)).toEqual(listed);
    expect(Object.entries(startupSummary(app.services.config, app.services).naming as object)).toEqual(listed);
  });
});

describe('evmPrimaryName beside Farcaster and Lens', () => {
  it('never answers a Farcaster or Lens username as the ENSIP-19 primary name of their chains', async () => {
    const asked: string[] = [];
    const answering = (info: NamingProviderInfo, name: string | null): NamingProvider => ({
      ...createUnconfiguredProvider(info, 'unused'),
      status: enabled,
      async reverse() {
        asked.push(info.provider);
        return name;
      },
    });
    const registry = namingProviders([
      answering(ENS_INFO, null),
      answering(FARCASTER_INFO, 'dwr'),
      answering(LENS_INFO, 'stani.lens'),
    ]);
    const address = '0x74232bf61e994655592747e20bdf6fa9b9476f79';
    expect(await evmPrimaryName(registry, { address, chainId: 10, timeoutMs: 1_000 })).toBeNull();
    expect(await evmPrimaryName(registry, { address, chainId: 232, timeoutMs: 1_000 })).toBeNull();
    expect(asked).toEqual(['ens', 'ens']);
  });
});
