import { Fullnode, NameRouter, ROUTER_VIEW_FUNCTIONS } from '../../../../platform/upstream/aptos/index.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../../../platform/upstream/body.js';
import { enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import type { LookupOptions, NameRecord, NamingProvider } from '../types.js';
import { ANS_MAINNET_ROUTER, APT_SUFFIX, APTOS_MAINNET, APTOS_NAMES_INFO } from './info.js';
import { normalizeAptName } from './normalize.js';

export { APTOS_NAMES_INFO };

export interface AptosNamesProviderOptions {
  /** Aptos mainnet fullnode REST base, …/v1 (`APTOS_RPC_URL`). */
  rpcUrl: string;
  /** The ANS router's address; Aptos mainnet's unless set (`APTOS_NAMES_ROUTER_ADDRESS`). */
  routerAddress?: string | undefined;
  /** Budget of one view call. */
  timeoutMs: number;
  /** Longest answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
  now?: () => Date;
}

/** Provider name of the Aptos fullnode in errors and logs. */
export const APTOS_FULLNODE = 'aptos-fullnode';

/**
 * Aptos Names (`.apt`) as a naming provider, read from the ANS router's view functions on an Aptos
 * fullnode (`POST /v1/view`), the router family MNS also reads. A name counts while it is registered
 * and unexpired: `get_expiration` (which aborts for an unregistered name) is checked as well as
 * `get_target_addr`, because the router's v1 fallback answers a target without looking at expiry. The
 * router keeps no text records, avatar or other chains' addresses, and cannot list names.
 *
 * @example
 * const ans = createAptosNamesProvider({ rpcUrl: 'https://api.mainnet.aptoslabs.com/v1', timeoutMs: 4000 });
 * await ans.resolve('alice.apt');
 */
export function createAptosNamesProvider(options: AptosNamesProviderOptions): NamingProvider {
  return build(options).provider;
}

/**
 * The provider, once the Aptos SDK it reads through is loaded: start-up waits for it, as it waits for
 * the other providers' modules, rather than the first search spending its deadline on the import.
 */
export async function loadAptosNamesProvider(options: AptosNamesProviderOptions): Promise<NamingProvider> {
  const { provider, node } = build(options);
  await node.ready();
  return provider;
}

function build(options: AptosNamesProviderOptions): { provider: NamingProvider; node: Fullnode } {
  const node = new Fullnode({
    name: APTOS_FULLNODE,
    url: options.rpcUrl,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  });
  const router = new NameRouter(node, {
    moduleAddress: options.routerAddress ?? ANS_MAINNET_ROUTER,
    functions: ROUTER_VIEW_FUNCTIONS,
    suffix: APT_SUFFIX,
  });
  const now = options.now ?? (() => new Date());

  /** Runs one lookup, its failures reported as this provider's. */
  async function lookup<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof UpstreamError && err.provider === APTOS_NAMES_INFO.provider) throw err;
      throw new UpstreamError(
        APTOS_NAMES_INFO.provider,
        `Aptos fullnode failed: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  /** Target and expiry of a live name; null when it is not registered or has expired. */
  async function live(name: string, signal?: AbortSignal): Promise<{ target: string | null; expireAt: Date } | null> {
    const [target, expireAt] = await lookup(() =>
      Promise.all([router.target(name, signal), router.expiration(name, signal)]),
    );
    if (expireAt === null || expireAt <= now()) return null;
    return { target: target === null ? null : toAptosAddress(target), expireAt };
  }

  const provider: NamingProvider = {
    info: APTOS_NAMES_INFO,
    status: enabled,

    normalize: normalizeAptName,

    async resolve(name, options?: LookupOptions) {
      const parsed = tryNormalize(name);
      return parsed ? ((await live(parsed, options?.signal))?.target ?? null) : null;
    },

    async reverse(address, options) {
      const wanted = accountAddress(address);
      if (!wanted) return null;
      const primary = await lookup(() => router.primary(wanted, options?.signal));
      if (!primary) return null;
      const name = tryNormalize(
        `${primary.subdomain === null ? '' : `${primary.subdomain}.`}${primary.domain}${APT_SUFFIX}`,
      );
      if (!name) return null;
      // A primary name counts only while it still resolves to the address that set it.
      const found = await live(name, options?.signal);
      return found?.target === wanted ? name : null;
    },

    async records(name, options): Promise<NameRecord | null> {
      const parsed = tryNormalize(name);
      if (!parsed) return null;
      const found = await live(parsed, options?.signal);
      if (!found) return null;
      return {
        name: parsed,
        ownerAddress: found.target,
        caip2Id: APTOS_MAINNET,
        avatar: null,
        expireAt: found.expireAt,
        registeredAt: null,
        multichainAddresses: found.target ? [{ address: found.target, caip2Id: APTOS_MAINNET }] : [],
        txtRecords: [],
      };
    },

    async candidates() {
      // The router cannot list names; an indexer would be needed for prefix search.
      return [];
    },
  };
  return { provider, node };
}

function tryNormalize(name: string): string | null {
  try {
    return normalizeAptName(name);
  } catch {
    return null;
  }
}

/** An Aptos account address in full form (`0x` + 64 lower-case hex); null for anything else. */
function accountAddress(input: string): string | null {
  return /^0x[0-9a-fA-F]{64}$/.test(input) ? input.toLowerCase() : null;
}

/** The router may answer short hex (`0x1`); addresses are compared and returned in full form. */
function toAptosAddress(value: string): string {
  return `0x${value.replace(/^0x/i, '').toLowerCase().padStart(64, '0')}`;
}
