import type { Reader } from './values.js';

/**
 * The upstreams identity names are read from (ENS, Basenames, SNS, Unstoppable Domains, SPACE ID, Aptos
 * Names, SuiNS, Farcaster, Lens), and how long found names stay indexed.
 */
export interface NamingSettings {
  ensRpcUrl: string | undefined;
  ensRegistryAddress: string | undefined;
  ensBaseRegistrarAddress: string | undefined;
  baseRpcUrl: string | undefined;
  basenamesRegistryAddress: string | undefined;
  /** `.base.eth` base registrar, for expiries; defaults to Base mainnet's only with the mainnet registry. */
  basenamesBaseRegistrarAddress: string | undefined;
  solanaRpcUrl: string | undefined;
  /** Unstoppable Domains: either RPC URL enables it; Polygon is read first, as UD's resolution library does. */
  unsPolygonRpcUrl: string | undefined;
  unsEthRpcUrl: string | undefined;
  unsPolygonProxyReaderAddress: string | undefined;
  unsEthProxyReaderAddress: string | undefined;
  /** SPACE ID: `.bnb` is read on BNB Chain, `.arb` on Arbitrum One; each TLD is on when its chain's URL is set. */
  spaceIdBscRpcUrl: string | undefined;
  spaceIdArbRpcUrl: string | undefined;
  spaceIdBscRegistryAddress: string | undefined;
  spaceIdArbRegistryAddress: string | undefined;
  /** Aptos mainnet fullnode REST base (…/v1); enables Aptos Names (`.apt`). */
  aptosRpcUrl: string | undefined;
  /** The ANS router's address; the provider uses Aptos mainnet's when unset. */
  aptosNamesRouterAddress: string | undefined;
  /** Sui GraphQL endpoint; enables SuiNS (`.sui`). */
  suiGraphqlUrl: string | undefined;
  /** A Farcaster hub's HTTP API; enables Farcaster usernames. */
  farcasterHubUrl: string | undefined;
  /** Sent to the hub as `x-api-key` (hosted hubs ask for one). */
  farcasterHubApiKey: string | undefined;
  /** The fname registry, read with the hub; Farcaster's own unless set. */
  farcasterFnameUrl: string;
  /** The Lens v3 GraphQL API; enables Lens usernames. */
  lensApiUrl: string | undefined;
  /** Sent to the Lens API as `x-lens-app`. */
  lensApiKey: string | undefined;
  /** How long names resolved from other providers stay in the local search index. */
  indexTtlSeconds: number;
}

/** Farcaster's fname registry, the one source of fnames; public and keyless. */
export const FNAME_REGISTRY_URL = 'https://fnames.farcaster.xyz';

export function namingSection(read: Reader): NamingSettings {
  return {
    ensRpcUrl: read.url('ENS_RPC_URL', ['http:', 'https:']),
    ensRegistryAddress: read.address('ENS_REGISTRY_ADDRESS'),
    ensBaseRegistrarAddress: read.address('ENS_BASE_REGISTRAR_ADDRESS'),
    baseRpcUrl: read.url('BASE_RPC_URL', ['http:', 'https:']),
    basenamesRegistryAddress: read.address('BASENAMES_REGISTRY_ADDRESS'),
    basenamesBaseRegistrarAddress: read.address('BASENAMES_BASE_REGISTRAR_ADDRESS'),
    solanaRpcUrl: read.url('SOLANA_RPC_URL', ['http:', 'https:']),
    unsPolygonRpcUrl: read.url('UNS_POLYGON_RPC_URL', ['http:', 'https:']),
    unsEthRpcUrl: read.url('UNS_ETH_RPC_URL', ['http:', 'https:']),
    unsPolygonProxyReaderAddress: read.address('UNS_POLYGON_PROXY_READER_ADDRESS'),
    unsEthProxyReaderAddress: read.address('UNS_ETH_PROXY_READER_ADDRESS'),
    spaceIdBscRpcUrl: read.url('SPACEID_BSC_RPC_URL', ['http:', 'https:']),
    spaceIdArbRpcUrl: read.url('SPACEID_ARB_RPC_URL', ['http:', 'https:']),
    spaceIdBscRegistryAddress: read.address('SPACEID_BSC_REGISTRY_ADDRESS'),
    spaceIdArbRegistryAddress: read.address('SPACEID_ARB_REGISTRY_ADDRESS'),
    aptosRpcUrl: read.url('APTOS_RPC_URL', ['http:', 'https:']),
    aptosNamesRouterAddress: moveAddress(read, 'APTOS_NAMES_ROUTER_ADDRESS'),
    suiGraphqlUrl: read.url('SUI_GRAPHQL_URL', ['http:', 'https:']),
    farcasterHubUrl: read.url('FARCASTER_HUB_URL', ['http:', 'https:']),
    farcasterHubApiKey: read.str('FARCASTER_HUB_API_KEY'),
    farcasterFnameUrl: read.url('FARCASTER_FNAME_URL', ['http:', 'https:']) ?? FNAME_REGISTRY_URL,
    lensApiUrl: read.url('LENS_API_URL', ['http:', 'https:']),
    lensApiKey: read.str('LENS_API_KEY'),
    indexTtlSeconds: read.int('NAME_INDEX_TTL_SECONDS', 3600, 1, 30 * 86_400),
  };
}

/** An Aptos account address setting: `0x` and 1 to 64 hex digits. */
function moveAddress(read: Reader, name: string): string | undefined {
  const raw = read.str(name);
  if (raw !== undefined && !/^0x[0-9a-fA-F]{1,64}$/.test(raw)) {
    read.problem(`${name} must be an Aptos address (0x and 1 to 64 hex digits), got "${raw}"`);
    return undefined;
  }
  return raw;
}
