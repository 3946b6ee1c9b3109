import type { Reader } from './values.js';

/** The chains identity names are read from (ENS, Basenames, SNS), and how long found names stay indexed. */
export interface NamingSettings {
  ensRpcUrl: string | undefined;
  ensRegistryAddress: string | undefined;
  ensBaseRegistrarAddress: string | undefined;
  baseRpcUrl: string | undefined;
  basenamesRegistryAddress: string | undefined;
  /** `.base.eth` base registrar, for expiries; defaults to Base mainnet's only with the mainnet registry. */
  basenamesBaseRegistrarAddress: string | undefined;
  solanaRpcUrl: string | undefined;
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
    indexTtlSeconds: read.int('NAME_INDEX_TTL_SECONDS', 3600, 1, 30 * 86_400),
  };
}
