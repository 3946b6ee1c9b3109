import { type HttpClient, UpstreamHttpError } from '../../../../platform/upstream/index.js';

/**
 * One transfer of the fname registry (farcasterxyz/fname-registry `src/transfers.ts`): `to` is the fid
 * the name went to (0 = burned), `owner` the custody address that signed, `timestamp` unix seconds.
 */
export interface FnameTransfer {
  id: number;
  timestamp: number;
  username: string;
  owner: string;
  from: number;
  to: number;
}

/**
 * `GET /transfers/current?name=` or `?fid=`: the name's (or fid's) latest transfer. The registry answers
 * 404 `{"error":"No transfer found"}` for a name never registered or burned, which is "no such name".
 */
export function fnameRegistryCalls(http: HttpClient) {
  const current = async (query: { name: string } | { fid: number }, signal: AbortSignal) => {
    try {
      const answer = await http.getJson<{ transfer?: FnameTransfer }>('/transfers/current', query, { signal });
      const transfer = answer.transfer;
      return transfer && transfer.to > 0 ? transfer : null;
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404) return null;
      throw err;
    }
  };
  return {
    byName: (name: string, signal: AbortSignal) => current({ name }, signal),
    byFid: (fid: number, signal: AbortSignal) => current({ fid }, signal),
  };
}
