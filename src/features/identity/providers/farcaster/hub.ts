import { type HttpClient, UpstreamHttpError } from '../../../../platform/upstream/index.js';

/**
 * The hub HTTP API's answers (Hubble `:2281`, Snapchain `:3381`), only what is read. Shapes after
 * docs.farcaster.xyz `reference/hubble/httpapi` and hub-monorepo `apps/hubble/src/rpc/httpServer.ts`, whose
 * `transformHash` writes addresses as `0x` hex and leaves signatures base64.
 */
export interface UserNameProof {
  /** Unix seconds. */
  timestamp: number;
  name: string;
  owner: string;
  fid: number;
  type: 'USERNAME_TYPE_FNAME' | 'USERNAME_TYPE_ENS_L1' | 'USERNAME_TYPE_BASENAME' | string;
}

export interface HubMessage<Data> {
  data?: Data;
  hash?: string;
}

export interface UserDataData {
  type?: string;
  fid?: number;
  /** Seconds since the Farcaster epoch, 2021-01-01T00:00:00Z. */
  timestamp?: number;
  userDataBody?: { type?: string; value?: string };
}

/** `verificationAddAddressBody` today; hubs also write it as the older `verificationAddEthAddressBody`. */
export interface VerificationBody {
  address?: string;
  chainId?: number;
  protocol?: 'PROTOCOL_ETHEREUM' | 'PROTOCOL_SOLANA' | string;
}

export interface VerificationData {
  type?: string;
  fid?: number;
  timestamp?: number;
  verificationAddAddressBody?: VerificationBody;
  verificationAddEthAddressBody?: VerificationBody;
}

export interface IdRegistryEvent {
  type?: string;
  blockNumber?: number;
  logIndex?: number;
  fid?: number;
  idRegisterEventBody?: { to?: string; eventType?: string; from?: string };
}

interface Messages<Data> {
  messages?: HubMessage<Data>[];
  nextPageToken?: string;
}

/**
 * A hub's "there is nothing": Hubble answers HTTP 400 with a serialized HubError whose `errCode` is
 * `not_found` (httpServer.ts `handleResponse`); Snapchain answers every failed call with HTTP 400 and its
 * error as JSON (snapchain `src/network/http_server.rs`), so a 400 is "not found" only when its body
 * says so. A hub or proxy answering 404 means the same. Any other refusal is the hub's failure.
 */
export function isNotFound(err: unknown): boolean {
  if (!(err instanceof UpstreamHttpError)) return false;
  if (err.status === 404) return true;
  const body = typeof err.body === 'string' ? err.body : JSON.stringify(err.body ?? '');
  return err.status === 400 && /not[_ ]?found/i.test(body);
}

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** The hub calls a Farcaster lookup makes, each bounded by the caller's signal. */
export function hubCalls(http: HttpClient) {
  return {
    userNameProofByName: (name: string, signal: AbortSignal) =>
      orNull(http.getJson<UserNameProof>('/v1/userNameProofByName', { name }, { signal })),

    async userDataByFid(fid: number, signal: AbortSignal): Promise<UserDataData[]> {
      const answer = await orNull(http.getJson<Messages<UserDataData>>('/v1/userDataByFid', { fid }, { signal }));
      return (answer?.messages ?? []).flatMap((m) => (m.data ? [m.data] : []));
    },

    async username(fid: number, signal: AbortSignal): Promise<string | null> {
      const message = await orNull(
        http.getJson<HubMessage<UserDataData>>(
          '/v1/userDataByFid',
          { fid, user_data_type: 'USER_DATA_TYPE_USERNAME' },
          { signal },
        ),
      );
      const value = message?.data?.userDataBody?.value;
      return typeof value === 'string' && value !== '' ? value : null;
    },

    async verificationsByFid(fid: number, signal: AbortSignal): Promise<VerificationData[]> {
      const answer = await orNull(
        http.getJson<Messages<VerificationData>>('/v1/verificationsByFid', { fid, pageSize: 100 }, { signal }),
      );
      return (answer?.messages ?? []).flatMap((m) => (m.data ? [m.data] : []));
    },

    /** The latest ID registry event (register or transfer) whose custody address is `address`. */
    idRegistryEventByAddress: (address: string, signal: AbortSignal) =>
      orNull(http.getJson<IdRegistryEvent>('/v1/onChainIdRegistryEventByAddress', { address }, { signal })),

    /** The fid's ID registry events (register, transfer, recovery), for its current custody address. */
    async idRegistryEvents(fid: number, signal: AbortSignal): Promise<IdRegistryEvent[]> {
      const answer = await orNull(
        http.getJson<{ events?: IdRegistryEvent[] }>(
          '/v1/onChainEventsByFid',
          { fid, event_type: 'EVENT_TYPE_ID_REGISTER' },
          { signal },
        ),
      );
      return answer?.events ?? [];
    },
  };
}
