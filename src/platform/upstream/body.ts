/**
 * Upstream answers are read into memory whole, so an upstream that streams without end (broken or
 * hostile) would grow the process until it dies. Every upstream body is cut at a byte limit instead.
 */

/** Default of `UPSTREAM_MAX_BODY_BYTES`: far above any real quote, token list or RPC answer. */
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** An upstream answer went past the byte limit; the connection was dropped at that point. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`answer is larger than ${limit} bytes`);
  }
}

/** Statuses whose Response may carry no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with a body that errors with `BodyTooLargeError` once more than `maxBytes` arrive (or at
 * once when Content-Length already says so). `abort` must abort the fetch that produced `response`:
 * that is what closes the socket, where merely cancelling the stream may leave undici draining it.
 */
export function limitBody(response: Response, maxBytes: number, abort: (reason: Error) => void): Response {
  const source = response.body;
  if (!source || NULL_BODY_STATUSES.has(response.status)) return response;
  const tooLarge = () => {
    const err = new BodyTooLargeError(maxBytes);
    abort(err);
    return err;
  };
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge();
  const reader = source.getReader();
  let received = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      received += value.byteLength;
      if (received > maxBytes) {
        controller.error(tooLarge());
        return;
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` whose answers are cut at `maxBytes`, for libraries that take a custom fetch
 * (`@solana/web3.js`'s Connection). The caller's signal still applies.
 */
export function limitedFetch(maxBytes: number, inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const cut = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal;
    const response = await inner(input, { ...init, signal });
    return limitBody(response, maxBytes, (reason) => cut.abort(reason));
  };
}
