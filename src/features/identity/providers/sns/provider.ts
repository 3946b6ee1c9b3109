import { Connection, PublicKey } from '@solana/web3.js';
import { chainByCoinType, evmCoinType } from '../../../../platform/chains/registry.js';
import { deadline } from '../../../../platform/deadline.js';
import { DEFAULT_MAX_BODY_BYTES, limitedFetch } from '../../../../platform/upstream/body.js';
import { disabled, enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import { txtRecordType } from '../txt-records.js';
import type { ChainAddress, LookupOptions, NameRecord, NamingProvider, TxtRecord } from '../types.js';
import { getPrimaryName } from './get-primary-name.js';
import type { SnsRecord } from './get-record-key.js';
import { getSnsDomain } from './get-sns-domain.js';
import { SNS_PROVIDER_INFO, SOLANA_MAINNET } from './info.js';
import { parseSnsName } from './parse-sns-name.js';

export { SNS_PROVIDER_INFO };

export interface SnsProviderOptions {
  /** Solana mainnet JSON-RPC endpoint (`SOLANA_RPC_URL`); without it the provider is disabled. */
  rpcUrl?: string | undefined;
  /** Budget of one lookup, all of its RPC calls together. */
  timeoutMs?: number | undefined;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
}

export const DEFAULT_SNS_TIMEOUT_MS = 5_000;

/** Text records in the order clients show them; `pic` is not among them because it is the avatar. */
const TEXT_RECORDS = ['url', 'email', 'twitter', 'github', 'discord', 'telegram'] as const satisfies SnsRecord[];
/** Address records and the coin type (SLIP-44 / ENSIP-11) under which the chain registry knows their chain. */
const ADDRESS_RECORDS = { ETH: 60, BSC: evmCoinType(56), BTC: 0 } as const satisfies Partial<Record<SnsRecord, number>>;
const ALL_RECORDS: SnsRecord[] = [...TEXT_RECORDS, ...(Object.keys(ADDRESS_RECORDS) as SnsRecord[]), 'pic'];

/**
 * The Solana Name Service (`.sol`) as a naming provider, reading the name program's accounts over Solana
 * JSON-RPC. SNS names do not expire and the chain keeps no registration time, so `expireAt` and
 * `registeredAt` are always null.
 *
 * @example
 * const sns = createSnsProvider({ rpcUrl: process.env.SOLANA_RPC_URL });
 * await sns.resolve('bonfida.sol');
 */
export function createSnsProvider({
  rpcUrl,
  timeoutMs = DEFAULT_SNS_TIMEOUT_MS,
  maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
}: SnsProviderOptions = {}): NamingProvider {
  const status = rpcUrl ? enabled : disabled('SOLANA_RPC_URL is not set');
  const bodyLimited = limitedFetch(maxBodyBytes);

  /**
   * Runs one lookup on a connection whose every request carries the lookup's deadline and the caller's
   * signal. A Connection per lookup is cheap (no socket until the first request) and is the only way to get
   * a per-call signal into web3.js, whose methods take none.
   */
  async function lookup<T>(
    options: LookupOptions | undefined,
    run: (connection: Connection) => Promise<T>,
  ): Promise<T> {
    if (!rpcUrl) throw new UpstreamError('sns', 'SOLANA_RPC_URL is not set');
    const limit = deadline(timeoutMs, options?.signal);
    const { signal } = limit;
    const connection = new Connection(rpcUrl, {
      commitment: 'confirmed',
      // web3.js would otherwise retry HTTP 429 with growing sleeps, far past any deadline.
      disableRetryOnRateLimit: true,
      httpAgent: false,
      fetch: (input, init) => bodyLimited(input, { ...init, signal }),
    });
    const aborted = abortPromise(signal);
    try {
      return await Promise.race([run(connection), aborted.promise]);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      if (limit.timedOut)
        throw new UpstreamError('sns', `Solana RPC did not answer within ${timeoutMs} ms`, { cause: error });
      if (signal.aborted) throw new UpstreamError('sns', 'lookup aborted', { cause: error });
      throw new UpstreamError('sns', `Solana RPC failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    } finally {
      limit.clear();
      aborted.dispose();
    }
  }

  return {
    info: SNS_PROVIDER_INFO,
    status,

    normalize(name: string): string {
      return parseSnsName(name).name;
    },

    async resolve(name, options) {
      const parsed = tryParse(name);
      if (!parsed) return null;
      const domain = await lookup(options, (connection) => getSnsDomain(connection, { name: parsed }));
      return domain?.address?.toBase58() ?? null;
    },

    async reverse(address, options) {
      const wallet = toPublicKey(address);
      if (!wallet) return null;
      const primary = await lookup(options, (connection) => getPrimaryName(connection, { wallet }));
      return primary && !primary.stale ? primary.name : null;
    },

    async records(name, options): Promise<NameRecord | null> {
      const parsed = tryParse(name);
      if (!parsed) return null;
      const domain = await lookup(options, (connection) =>
        getSnsDomain(connection, { name: parsed, records: ALL_RECORDS }),
      );
      if (!domain) return null;
      const address = domain.address?.toBase58() ?? null;

      const multichainAddresses: ChainAddress[] = address ? [{ address, caip2Id: SOLANA_MAINNET }] : [];
      for (const [record, coinType] of Object.entries(ADDRESS_RECORDS) as [SnsRecord, number][]) {
        const value = domain.records[record];
        const chain = chainByCoinType(coinType);
        if (value !== undefined && chain) multichainAddresses.push({ address: value, caip2Id: chain.caip2Id });
      }

      const txtRecords: TxtRecord[] = [];
      for (const key of TEXT_RECORDS) {
        const value = domain.records[key];
        if (value !== undefined) txtRecords.push({ key, value, type: txtRecordType(key) });
      }

      return {
        name: domain.name,
        ownerAddress: address,
        caip2Id: SOLANA_MAINNET,
        avatar: asUrl(domain.records.pic),
        expireAt: null,
        registeredAt: null,
        multichainAddresses,
        txtRecords,
      };
    },

    async candidates() {
      // SNS has no index to list names by prefix from; scanning the name program is not an option per request.
      return [];
    },
  };
}

/** A name SNS cannot hold has no records: answering null spares an RPC round trip. */
function tryParse(name: string): string | null {
  try {
    return parseSnsName(name).name;
  } catch {
    return null;
  }
}

function toPublicKey(address: string): PublicKey | null {
  try {
    return new PublicKey(address);
  } catch {
    return null;
  }
}

/** The `pic` record is free text; only a URL can be an avatar. */
function asUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  try {
    const url = new URL(value);
    return ['https:', 'http:', 'ipfs:', 'ar:'].includes(url.protocol) ? value : null;
  } catch {
    return null;
  }
}

/** A promise that rejects when the signal aborts, so a lookup ends on time even if a request ignores the signal. */
function abortPromise(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // The race may settle first; an unobserved rejection afterwards must not surface as unhandled.
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
