import type { Reader } from './values.js';

/** Bounds on every call to an upstream (name providers, MNS sources, bridge providers), so none can stall a request. */
export interface UpstreamSettings {
  providerTimeoutMs: number;
  /** Longest upstream answer body read (HTTP APIs and JSON-RPC); a longer answer fails that upstream call. */
  upstreamMaxBodyBytes: number;
}

export function upstreamSection(read: Reader): UpstreamSettings {
  return {
    providerTimeoutMs: read.int('PROVIDER_TIMEOUT_MS', 4000, 50, 120_000),
    upstreamMaxBodyBytes: read.int('UPSTREAM_MAX_BODY_BYTES', 5 * 1_048_576, 1024, 1024 * 1_048_576),
  };
}
