import { ROUTER_VIEW_FUNCTIONS } from '../upstream/aptos/name-router.js';
import type { Reader } from './values.js';

/** MNS (`.snow`) resolution beyond the local registry: Movement fullnodes and an upstream API. */
export interface ResolutionSettings {
  /** MNS read from Movement fullnodes (src/features/resolution/sources/chain, indexer/). */
  mnsChain: {
    /** Fullnode REST base URL (…/v1) per Movement network reference (126, 177, 250). */
    rpcUrls: Record<string, string>;
    moduleAddress: string | undefined;
    /** View functions, as `module::function` under `moduleAddress`. */
    functions: { target: string; owner: string; expiration: string; primary: string };
    indexer: { inServer: boolean; intervalMs: number; pageSize: number; startVersion: string };
  };
  /** Where `.snow` names come from besides the local registry (src/features/resolution/sources). */
  mns: {
    upstream: {
      /** Base of an upstream MNS public API (…/api/public); unset means no upstream source. */
      url: string | undefined;
      cacheTtlSeconds: number;
      cacheMaxEntries: number;
    };
  };
}

type ViewFunctions = ResolutionSettings['mnsChain']['functions'];

/** The Aptos Names router's view functions, which the MNS module derives from, with MNS_VIEW_FUNCTIONS's overrides. */
function viewFunctions(read: Reader): ViewFunctions {
  const functions: ViewFunctions = { ...ROUTER_VIEW_FUNCTIONS };
  for (const pair of read.list('MNS_VIEW_FUNCTIONS').filter((p) => p.trim())) {
    const [key = '', fn = ''] = pair.split('=').map((part) => part.trim());
    if (!(key in functions) || !/^[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/.test(fn)) {
      read.problem(
        `MNS_VIEW_FUNCTIONS must be a comma-separated list of <target|owner|expiration|primary>=<module>::<function>, got "${pair}"`,
      );
    } else functions[key as keyof ViewFunctions] = fn;
  }
  return functions;
}

export function resolutionSection(read: Reader): ResolutionSettings {
  const rpcUrls: Record<string, string> = {};
  for (const network of ['126', '177', '250']) {
    const value = read.url(`MOVEMENT_RPC_URL_${network}`, ['http:', 'https:']);
    if (value) rpcUrls[network] = value;
  }
  const moduleAddress = read.str('MNS_MODULE_ADDRESS');
  if (moduleAddress !== undefined && !/^0x[0-9a-fA-F]{1,64}$/.test(moduleAddress)) {
    read.problem(`MNS_MODULE_ADDRESS must be a Movement address (0x and 1 to 64 hex digits), got "${moduleAddress}"`);
  }
  if (Object.keys(rpcUrls).length && moduleAddress === undefined) {
    read.problem('MNS_MODULE_ADDRESS is required when a MOVEMENT_RPC_URL_<network> is set');
  }
  const inServer = read.bool('MNS_INDEXER', false);
  if (inServer && !Object.keys(rpcUrls).length) {
    read.problem('MNS_INDEXER needs at least one MOVEMENT_RPC_URL_<network> to read from');
  }
  const startVersion = read.str('MNS_INDEXER_START_VERSION') ?? '0';
  if (!/^\d{1,20}$/.test(startVersion)) {
    read.problem(`MNS_INDEXER_START_VERSION must be a ledger version (a whole number), got "${startVersion}"`);
  }
  return {
    mnsChain: {
      rpcUrls,
      moduleAddress,
      functions: viewFunctions(read),
      indexer: {
        inServer,
        intervalMs: read.int('MNS_INDEXER_INTERVAL_MS', 5000, 100, 3_600_000),
        // The Aptos REST API serves at most 100 transactions a page.
        pageSize: read.int('MNS_INDEXER_PAGE_SIZE', 100, 1, 100),
        startVersion,
      },
    },
    mns: {
      upstream: {
        url: read.url('MNS_UPSTREAM_URL', ['http:', 'https:']),
        cacheTtlSeconds: read.int('MNS_UPSTREAM_CACHE_TTL_SECONDS', 60, 0, 86_400),
        cacheMaxEntries: read.int('MNS_UPSTREAM_CACHE_MAX_ENTRIES', 10_000, 0, 10_000_000),
      },
    },
  };
}
