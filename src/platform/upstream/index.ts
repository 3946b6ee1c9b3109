export { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, limitBody, limitedFetch } from './body.js';
export { type BreakerOptions, type BreakerState, CircuitBreaker } from './breaker.js';
export {
  buildUrl,
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  parseRetryAfter,
  type Query,
  type RequestOptions,
} from './client.js';
export {
  isUpstreamClientError,
  type UnavailableReason,
  UpstreamHttpError,
  UpstreamUnavailableError,
} from './errors.js';
export { sumDecimals, toDecimalString, toIntegerString, usdValue } from './wire.js';
