import type { Config } from '../config.js';
import { createAcrossProvider } from '../providers/bridge/across/index.js';
import { createLifiProvider } from '../providers/bridge/lifi/index.js';
import { createSandboxProvider } from '../providers/bridge/sandbox/index.js';
import type { BridgeProvider } from '../providers/bridge/types.js';
import type { HttpClientOptions } from '../providers/http/index.js';
import { disabled, UpstreamError } from '../providers/status.js';

export interface BridgeProviderOverrides {
  /** Resilience settings of the upstream HTTP clients (tests use short back-offs). */
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep'>;
  /** Replaces the configured providers altogether (tests of the aggregation). */
  providers?: BridgeProvider[];
}

/**
 * Every bridge provider cipgate knows, enabled or not, in the order their metadata is preferred when
 * catalogues overlap: real upstreams first, the sandbox's offline snapshot last.
 */
export function createBridgeProviders(config: Config, overrides: BridgeProviderOverrides = {}): BridgeProvider[] {
  if (overrides.providers) return overrides.providers;
  const { bridge, providerTimeoutMs } = config;
  // One retry: a transient 502 is worth a second try, but the quote deadline (also PROVIDER_TIMEOUT_MS)
  // bounds the whole exchange, so more retries would only be cut off.
  const common = { timeoutMs: providerTimeoutMs, retries: 1, ...(overrides.http ? { http: overrides.http } : {}) };
  return [
    createLifiProvider({
      enabled: bridge.lifi.enabled,
      baseUrl: bridge.lifi.baseUrl,
      apiKey: bridge.lifi.apiKey,
      ...common,
    }),
    createAcrossProvider({ enabled: bridge.across.enabled, baseUrl: bridge.across.baseUrl, ...common }),
    bridge.sandbox ? createSandboxProvider() : disabledSandbox(),
  ];
}

function disabledSandbox(): BridgeProvider {
  const status = disabled('The sandbox provider is off: BRIDGE_SANDBOX=false');
  const refuse = async (): Promise<never> => {
    throw new UpstreamError('sandbox', status.enabled ? 'disabled' : status.reason);
  };
  return { name: 'sandbox', status, chains: refuse, tokens: refuse, quote: refuse, transferStatus: refuse };
}

export const isEnabled = (p: BridgeProvider): boolean => p.status.enabled;
