import { base58, hex } from '@scure/base';
import { getAddress, isAddress } from 'viem';
import { deadline } from '../../../../platform/deadline.js';
import { createHttpClient } from '../../../../platform/upstream/index.js';
import { enabled, UpstreamError } from '../../../../platform/upstream/status.js';
import { txtRecordType } from '../txt-records.js';
import type { ChainAddress, LookupOptions, NameRecord, NamingProvider, TxtRecord } from '../types.js';
import { fnameRegistryCalls } from './fname-registry.js';
import { hubCalls, type IdRegistryEvent, type UserDataData, type VerificationData } from './hub.js';
import { FARCASTER_CHAIN, FARCASTER_INFO } from './info.js';
import { type FarcasterUsername, parseFarcasterUsername } from './username.js';

export interface FarcasterProviderOptions {
  /** A hub's HTTP API (`FARCASTER_HUB_URL`): Hubble `:2281`, Snapchain `:3381`, or a hosted one. */
  hubUrl: string;
  /** Sent as `x-api-key` (`FARCASTER_HUB_API_KEY`), which hosted hubs ask for. */
  hubApiKey?: string | undefined;
  /** The fname registry (`FARCASTER_FNAME_URL`), `https://fnames.farcaster.xyz` in production. */
  fnameUrl: string;
  /** Budget of one lookup, all of its calls together. */
  timeoutMs: number;
  maxBodyBytes?: number | undefined;
  /** Overrides of the HTTP clients' resilience settings (tests use short ones). */
  http?: { breaker?: false; backoff?: { baseMs?: number; maxMs?: number } };
}

const SOLANA = 'solana:mainnet-beta';

/** Profile fields as text records, under the keys ENS profiles use for the same things (ENSIP-5). */
const TEXT_KEYS: Record<string, string> = {
  USER_DATA_TYPE_DISPLAY: 'name',
  USER_DATA_TYPE_BIO: 'description',
  USER_DATA_TYPE_URL: 'url',
  USER_DATA_TYPE_TWITTER: 'com.twitter',
  USER_DATA_TYPE_GITHUB: 'com.github',
  USER_DATA_TYPE_LOCATION: 'location',
};
const TEXT_ORDER = Object.keys(TEXT_KEYS);

/**
 * Farcaster usernames as a naming provider. An fname's owner is the fname registry's (its current
 * transfer names the fid); an ENS username's is the hub's username proof. The account's profile, verified
 * addresses and custody address come from the hub. The name resolves to the custody address, on OP
 * Mainnet where the ID registry keeps it; verified Ethereum and Solana addresses follow it in
 * `multichainAddresses`. Usernames do not expire; `registeredAt` is when the name reached its fid.
 *
 * @example
 * const farcaster = createFarcasterProvider({ hubUrl: 'http://127.0.0.1:2281', fnameUrl: 'https://fnames.farcaster.xyz', timeoutMs: 4000 });
 * await farcaster.records('dwr');
 */
export function createFarcasterProvider(options: FarcasterProviderOptions): NamingProvider {
  const { timeoutMs } = options;
  const client = (name: string, baseUrl: string, headers?: Record<string, string>) =>
    createHttpClient({
      name,
      baseUrl,
      headers,
      timeoutMs,
      retries: 1,
      maxBodyBytes: options.maxBodyBytes,
      ...options.http,
    });
  const hub = hubCalls(
    client('farcaster-hub', options.hubUrl, options.hubApiKey ? { 'x-api-key': options.hubApiKey } : undefined),
  );
  const fnames = fnameRegistryCalls(client('farcaster-fnames', options.fnameUrl));

  /** Runs one lookup under its deadline; whatever fails is an UpstreamError naming Farcaster. */
  async function lookup<T>(options: LookupOptions | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const limit = deadline(timeoutMs, options?.signal);
    try {
      return await run(limit.signal);
    } catch (err) {
      if (limit.timedOut) {
        throw new UpstreamError('farcaster', `no answer within ${timeoutMs} ms`, { cause: err });
      }
      if (err instanceof UpstreamError) throw err;
      if (limit.signal.aborted) throw new UpstreamError('farcaster', 'lookup aborted', { cause: err });
      throw new UpstreamError('farcaster', `bad answer: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    } finally {
      limit.clear();
    }
  }

  /** The fid a username belongs to now, with the address that registered it and when; null when none. */
  async function ownerOf(username: FarcasterUsername, signal: AbortSignal) {
    if (username.kind === 'fname') {
      const transfer = await fnames.byName(username.name, signal);
      return transfer && { fid: transfer.to, name: transfer.username, owner: transfer.owner, at: transfer.timestamp };
    }
    const proof = await hub.userNameProofByName(username.name, signal);
    return proof && proof.fid > 0
      ? { fid: proof.fid, name: proof.name, owner: proof.owner, at: proof.timestamp }
      : null;
  }

  async function read(username: FarcasterUsername, signal: AbortSignal): Promise<NameRecord | null> {
    const owner = await ownerOf(username, signal);
    if (!owner) return null;
    const [userData, verifications, events] = await Promise.all([
      hub.userDataByFid(owner.fid, signal),
      hub.verificationsByFid(owner.fid, signal),
      hub.idRegistryEvents(owner.fid, signal),
    ]);
    const custody = custodyOf(events) ?? evmAddress(owner.owner);
    const profile = latestByType(userData);
    const txtRecords: TxtRecord[] = [{ key: 'fid', value: String(owner.fid), type: 'text' }];
    for (const type of TEXT_ORDER) {
      const value = profile.get(type);
      const key = TEXT_KEYS[type] as string;
      if (value) txtRecords.push({ key, value, type: txtRecordType(key) });
    }
    const multichainAddresses: ChainAddress[] = custody ? [{ address: custody, caip2Id: FARCASTER_CHAIN }] : [];
    for (const address of verifiedAddresses(verifications)) {
      if (!multichainAddresses.some((a) => a.address === address.address && a.caip2Id === address.caip2Id)) {
        multichainAddresses.push(address);
      }
    }
    return {
      name: owner.name,
      ownerAddress: custody,
      caip2Id: FARCASTER_CHAIN,
      avatar: asUrl(profile.get('USER_DATA_TYPE_PFP')),
      expireAt: null,
      registeredAt: Number.isFinite(owner.at) && owner.at > 0 ? new Date(owner.at * 1000) : null,
      multichainAddresses,
      txtRecords,
    };
  }

  return {
    info: FARCASTER_INFO,
    status: enabled,

    normalize: (name) => parseFarcasterUsername(name).name,

    async resolve(name, options) {
      return (await this.records(name, options))?.ownerAddress ?? null;
    },

    async records(name, options) {
      const username = tryParse(name);
      if (!username) return null;
      return lookup(options, (signal) => read(username, signal));
    },

    /**
     * The username of the account whose custody address `address` is: the hub knows the fid from the ID
     * registry; its username is the one the account shows (hub USERNAME user data), else its fname, and
     * counts only while that name still belongs to the fid. Verified (non-custody) addresses are not
     * indexed by address in the hub HTTP API, so they find nothing here.
     */
    async reverse(address, options) {
      if (!isAddress(address, { strict: false })) return null;
      return lookup(options, async (signal) => {
        const event = await hub.idRegistryEventByAddress(address.toLowerCase(), signal);
        const fid = event?.fid;
        if (!fid || !sameAddress(event?.idRegisterEventBody?.to, address)) return null;
        const shown = await hub.username(fid, signal);
        const name = shown ?? (await fnames.byFid(fid, signal))?.username ?? null;
        const username = name ? tryParse(name) : null;
        if (!username) return null;
        const owner = await ownerOf(username, signal);
        return owner?.fid === fid ? owner.name : null;
      });
    },

    async candidates() {
      // Neither the hub nor the fname registry lists names by prefix.
      return [];
    },
  };
}

function tryParse(name: string): FarcasterUsername | null {
  try {
    return parseFarcasterUsername(name);
  } catch {
    return null;
  }
}

/** Each user data type's value from its newest message (message timestamps are Farcaster-epoch seconds). */
function latestByType(messages: readonly UserDataData[]): Map<string, string> {
  const newest = new Map<string, { at: number; value: string }>();
  for (const m of messages) {
    const type = m.userDataBody?.type;
    const value = m.userDataBody?.value;
    if (m.type !== 'MESSAGE_TYPE_USER_DATA_ADD' || !type || typeof value !== 'string') continue;
    const at = m.timestamp ?? 0;
    const seen = newest.get(type);
    if (!seen || at >= seen.at) newest.set(type, { at, value });
  }
  return new Map([...newest].map(([type, { value }]) => [type, value]));
}

/**
 * The custody address: the `to` of the fid's latest register or transfer event. Recovery-address changes
 * move no custody; Hubble names the types `ID_REGISTER_EVENT_TYPE_*`, Snapchain `Register`, `Transfer`, ….
 */
function custodyOf(events: readonly IdRegistryEvent[]): string | null {
  let latest: IdRegistryEvent | undefined;
  for (const e of events) {
    if (/recovery/i.test(e.idRegisterEventBody?.eventType ?? '') || !evmAddress(e.idRegisterEventBody?.to)) continue;
    if (!latest || order(e) > order(latest)) latest = e;
  }
  return evmAddress(latest?.idRegisterEventBody?.to);
}

const order = (e: IdRegistryEvent) => (e.blockNumber ?? 0) * 1_000_000 + (e.logIndex ?? 0);

/**
 * Verified addresses: Ethereum ones on their chain (`chainId` 0, an EOA, counts as Ethereum mainnet, as
 * ENS's coin type 60 does), Solana ones in base58 (Hubble's HTTP API writes them as `0x` hex, others base58).
 */
function verifiedAddresses(messages: readonly VerificationData[]): ChainAddress[] {
  const out: ChainAddress[] = [];
  for (const m of messages) {
    const body = m.verificationAddAddressBody ?? m.verificationAddEthAddressBody;
    if (!body?.address || !m.type?.startsWith('MESSAGE_TYPE_VERIFICATION_ADD')) continue;
    if (body.protocol === 'PROTOCOL_SOLANA') {
      const address = solanaAddress(body.address);
      if (address) out.push({ address, caip2Id: SOLANA });
    } else {
      const address = evmAddress(body.address);
      if (address) out.push({ address, caip2Id: `eip155:${body.chainId && body.chainId > 0 ? body.chainId : 1}` });
    }
  }
  return out;
}

function evmAddress(value: string | undefined): string | null {
  return value && isAddress(value, { strict: false }) && !/^0x0{40}$/i.test(value) ? getAddress(value) : null;
}

const sameAddress = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

function solanaAddress(value: string): string | null {
  try {
    if (/^0x[0-9a-fA-F]{64}$/.test(value)) return base58.encode(hex.decode(value.slice(2).toLowerCase()));
    return base58.decode(value).length === 32 ? value : null;
  } catch {
    return null;
  }
}

/** The PFP field is free text; only a URL can be an avatar. */
function asUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return ['https:', 'http:', 'ipfs:', 'ar:'].includes(url.protocol) ? value : null;
  } catch {
    return null;
  }
}
