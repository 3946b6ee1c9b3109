import { BaseError, type CcipRequestParameters, type Client, createPublicClient, type Hex, http } from 'viem';
import { DEFAULT_MAX_BODY_BYTES, limitedFetch } from '../../../platform/upstream/body.js';
import { UpstreamError } from '../../../platform/upstream/status.js';

export const DEFAULT_TIMEOUT_MS = 5_000;

export interface EvmRpcClientOptions {
  rpcUrl: string;
  /** Per-RPC-request timeout. */
  timeoutMs?: number | undefined;
  /** Longest JSON-RPC answer read (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number | undefined;
  /** EIP-3668 gateway requests; CCIP-Read is off when absent. */
  ccipRequest?: ((parameters: CcipRequestParameters) => Promise<Hex>) | undefined;
}

/** The viem client every contract-backed naming provider reads its chain with. */
export function createEvmRpcClient(options: EvmRpcClientOptions): Client {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return createPublicClient({
    // Batching sends the parallel reads of one lookup (text keys, coin types) in a single HTTP
    // round trip, which keeps `records` cheap without needing Multicall3 on the chain. One retry
    // covers a dropped connection; more would only delay reporting a dead upstream.
    transport: http(options.rpcUrl, {
      batch: true,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retryCount: 1,
      retryDelay: 100,
      // viem checks the size too, but only cancels the stream, which leaves undici draining an endless
      // answer; the limited fetch aborts the request and so drops the connection.
      fetchFn: limitedFetch(maxBodyBytes),
      maxResponseBodySize: maxBodyBytes,
    }),
    ccipRead: options.ccipRequest ? { request: options.ccipRequest } : false,
  });
}

/**
 * Runs one provider operation against its chain: any failure becomes an `UpstreamError` of `provider`,
 * and an aborted `signal` stops the wait.
 */
export async function evmUpstream<T>(
  provider: string,
  operation: string,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await abortable(provider, run(), signal);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    const detail = err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
    throw new UpstreamError(provider, `${operation} failed: ${detail}`, { cause: err });
  }
}

function abortable<T>(provider: string, promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  const aborted = () => new UpstreamError(provider, 'request aborted', { cause: signal.reason });
  if (signal.aborted) return Promise.reject(aborted());
  // viem's read actions take no AbortSignal, so the caller stops waiting and the request is left to
  // finish on its own (bounded by the transport timeout).
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
