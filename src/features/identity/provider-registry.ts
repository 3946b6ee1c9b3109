import type { Address } from 'viem';
import type { Config } from '../../platform/config.js';
import { APTOS_NAMES_INFO } from './providers/aptos-names/info.js';
import { BASENAMES_INFO } from './providers/basenames/info.js';
import { createUnconfiguredProvider } from './providers/disabled.js';
import { ENS_INFO } from './providers/ens/info.js';
import { FARCASTER_INFO } from './providers/farcaster/info.js';
import { LENS_INFO } from './providers/lens/info.js';
import { SNS_PROVIDER_INFO } from './providers/sns/info.js';
import { SPACEID_INFO } from './providers/spaceid/info.js';
import { SUINS_INFO } from './providers/suins/info.js';
import type { NamingProvider } from './providers/types.js';
import { UNSTOPPABLE_INFO } from './providers/unstoppable/info.js';

/**
 * The naming providers of this process, in ranking order: the operator's own registry (MNS) first,
 * then the others. Disabled providers stay in the list so suffix ownership and the providers listing
 * still know about them; lookups skip them.
 */
export interface NamingProviders {
  readonly all: readonly NamingProvider[];
  /** Provider id whose results rank before every other provider's (the operator's own registry). */
  readonly home: string | undefined;
  enabled(): NamingProvider[];
  byId(id: string): NamingProvider | undefined;
  /**
   * The provider owning a full name: the one whose namespace prefix it starts with (`lens/stani`), else
   * the one owning its suffix, longest suffix first (`.base.eth` before `.eth`).
   */
  owning(name: string): NamingProvider | undefined;
  /** The suffix its names are registered under, as messages name the provider. */
  suffixOf(provider: NamingProvider): string;
  /** The name a bare label is looked up as under `provider` (its `bareLabel` rule); null when it takes none. */
  bareName(provider: NamingProvider, label: string): string | null;
}

export function namingProviders(list: readonly NamingProvider[], home?: string): NamingProviders {
  const ids = new Set<string>();
  for (const p of list) {
    if (ids.has(p.info.provider)) throw new Error(`naming provider "${p.info.provider}" is registered twice`);
    ids.add(p.info.provider);
    if (p.info.suffixes.length === 0) throw new Error(`naming provider "${p.info.provider}" owns no suffix`);
  }
  const bySuffix = list
    .flatMap((provider) => provider.info.suffixes.map((suffix) => ({ suffix: suffix.toLowerCase(), provider })))
    .sort((a, b) => b.suffix.length - a.suffix.length);
  const byPrefix = list.flatMap((provider) =>
    (provider.info.prefixes ?? []).map((prefix) => ({ prefix: prefix.toLowerCase(), provider })),
  );
  return {
    all: list,
    home,
    enabled: () => list.filter((p) => p.status.enabled),
    byId: (id) => list.find((p) => p.info.provider === id),
    owning(name) {
      const lower = name.toLowerCase();
      return (
        byPrefix.find(({ prefix }) => lower.startsWith(prefix) && lower.length > prefix.length)?.provider ??
        bySuffix.find(({ suffix }) => lower.endsWith(suffix) && lower.length > suffix.length)?.provider
      );
    },
    // Providers list their suffixes longest first; the first is the one their names are registered under.
    suffixOf: (provider) => provider.info.suffixes[0] as string,
    bareName(provider, label) {
      const rule = provider.info.bareLabel ?? 'suffix';
      if (rule === 'none') return null;
      return rule === 'label' ? label : `${label}${provider.info.suffixes[0] as string}`;
    },
  };
}

/**
 * The providers configured by the environment. A provider whose upstream is not configured comes back
 * disabled (with the reason), never faked. MNS reads the local database, so it is passed in built.
 * A provider's module is imported only when it is configured: SNS alone brings @solana/web3.js and
 * Bonfida's SDK, ENS viem's ENSIP-15 tables, memory a process without those upstreams never needs.
 */
export async function namingProvidersFromConfig(config: Config, mns?: NamingProvider): Promise<NamingProviders> {
  const { naming } = config;
  const common = { timeoutMs: config.providerTimeoutMs, maxBodyBytes: config.upstreamMaxBodyBytes };
  const evm = (rpcUrl: string, registry: string | undefined, baseRegistrar: string | undefined) => ({
    rpcUrl,
    registryAddress: registry as Address | undefined,
    baseRegistrarAddress: baseRegistrar as Address | undefined,
    ...common,
  });
  const ens = async (url: string) =>
    (await import('./providers/ens/provider.js')).createEnsProvider(
      evm(url, naming.ensRegistryAddress, naming.ensBaseRegistrarAddress),
    );
  const basenames = async (url: string) =>
    (await import('./providers/basenames/provider.js')).createBasenamesProvider(
      evm(url, naming.basenamesRegistryAddress, naming.basenamesBaseRegistrarAddress),
    );
  const sns = async (rpcUrl: string) =>
    (await import('./providers/sns/provider.js')).createSnsProvider({ rpcUrl, ...common });
  // Two chains each: the provider reads every URL that is set, whichever one turned it on.
  const unstoppable = async () =>
    (await import('./providers/unstoppable/provider.js')).createUnstoppableProvider({
      polygonRpcUrl: naming.unsPolygonRpcUrl,
      ethRpcUrl: naming.unsEthRpcUrl,
      polygonProxyReaderAddress: naming.unsPolygonProxyReaderAddress as Address | undefined,
      ethProxyReaderAddress: naming.unsEthProxyReaderAddress as Address | undefined,
      ...common,
    });
  const spaceId = async () =>
    (await import('./providers/spaceid/provider.js')).createSpaceIdProvider({
      bnb: {
        rpcUrl: naming.spaceIdBscRpcUrl,
        registryAddress: naming.spaceIdBscRegistryAddress as Address | undefined,
      },
      arb: {
        rpcUrl: naming.spaceIdArbRpcUrl,
        registryAddress: naming.spaceIdArbRegistryAddress as Address | undefined,
      },
      ...common,
    });
  const aptosNames = async (rpcUrl: string) =>
    (await import('./providers/aptos-names/provider.js')).loadAptosNamesProvider({
      rpcUrl,
      routerAddress: naming.aptosNamesRouterAddress,
      ...common,
    });
  const suins = async (graphqlUrl: string) =>
    (await import('./providers/suins/provider.js')).createSuinsProvider({ graphqlUrl, ...common });
  const farcaster = async (hubUrl: string) =>
    (await import('./providers/farcaster/provider.js')).createFarcasterProvider({
      hubUrl,
      hubApiKey: naming.farcasterHubApiKey,
      fnameUrl: naming.farcasterFnameUrl,
      ...common,
    });
  const lens = async (apiUrl: string) =>
    (await import('./providers/lens/provider.js')).createLensProvider({ apiUrl, apiKey: naming.lensApiKey, ...common });
  // In ranking order: the provider info, the setting that turns it on, and how its module is built.
  const upstreams = [
    [ENS_INFO, 'ENS_RPC_URL', naming.ensRpcUrl, ens],
    [BASENAMES_INFO, 'BASE_RPC_URL', naming.baseRpcUrl, basenames],
    [SNS_PROVIDER_INFO, 'SOLANA_RPC_URL', naming.solanaRpcUrl, sns],
    [
      UNSTOPPABLE_INFO,
      'UNS_POLYGON_RPC_URL or UNS_ETH_RPC_URL',
      naming.unsPolygonRpcUrl ?? naming.unsEthRpcUrl,
      unstoppable,
    ],
    [
      SPACEID_INFO,
      'SPACEID_BSC_RPC_URL or SPACEID_ARB_RPC_URL',
      naming.spaceIdBscRpcUrl ?? naming.spaceIdArbRpcUrl,
      spaceId,
    ],
    [APTOS_NAMES_INFO, 'APTOS_RPC_URL', naming.aptosRpcUrl, aptosNames],
    [SUINS_INFO, 'SUI_GRAPHQL_URL', naming.suiGraphqlUrl, suins],
    [FARCASTER_INFO, 'FARCASTER_HUB_URL', naming.farcasterHubUrl, farcaster],
    [LENS_INFO, 'LENS_API_URL', naming.lensApiUrl, lens],
  ] as const;
  const others = await Promise.all(
    upstreams.map(([info, setting, rpcUrl, load]) =>
      rpcUrl ? load(rpcUrl) : createUnconfiguredProvider(info, `${setting} is not set`),
    ),
  );
  return namingProviders(mns ? [mns, ...others] : others, mns?.info.provider);
}
