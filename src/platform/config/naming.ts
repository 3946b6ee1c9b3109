import type { Reader } from './values.js';

/** The chains identity names are read from (ENS, Basenames, SNS, Aptos Names, SuiNS), and how long found names stay indexed. */
export interface NamingSettings {
  ensRpcUrl: string | undefined;
  ensRegistryAddress: string | undefined;
  ensBaseRegistrarAddress: string | undefined;
  baseRpcUrl: string | undefined;
  basenamesRegistryAddress: string | undefined;
  /** `.base.eth` base registrar, for expiries; defaults to Base mainnet's only with the mainnet registry. */
  basenamesBaseRegistrarAddress: string | undefined;
  solanaRpcUrl: string | undefined;
  /** Aptos mainnet fullnode REST base (…/v1); enables Aptos Names (`.apt`). */
  aptosRpcUrl: string | undefined;
  /** The ANS router's address; the provider uses Aptos mainnet's when unset. */
  aptosNamesRouterAddress: string | undefined;
  /** Sui GraphQL endpoint; enables SuiNS (`.sui`). */
  suiGraphqlUrl: string | undefined;
  /** How long names resolved from other providers stay in the local search index. */
  indexTtlSeconds: number;
}

export function namingSection(read: Reader): NamingSettings {
  return {
    ensRpcUrl: read.url('ENS_RPC_URL', ['http:', 'https:']),
    ensRegistryAddress: read.address('ENS_REGISTRY_ADDRESS'),
    ensBaseRegistrarAddress: read.address('ENS_BASE_REGISTRAR_ADDRESS'),
    baseRpcUrl: read.url('BASE_RPC_URL', ['http:', 'https:']),
    basenamesRegistryAddress: read.address('BASENAMES_REGISTRY_ADDRESS'),
    basenamesBaseRegistrarAddress: read.address('BASENAMES_BASE_REGISTRAR_ADDRESS'),
    solanaRpcUrl: read.url('SOLANA_RPC_URL', ['http:', 'https:']),
    aptosRpcUrl: read.url('APTOS_RPC_URL', ['http:', 'https:']),
    aptosNamesRouterAddress: moveAddress(read, 'APTOS_NAMES_ROUTER_ADDRESS'),
    suiGraphqlUrl: read.url('SUI_GRAPHQL_URL', ['http:', 'https:']),
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
