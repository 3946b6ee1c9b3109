import type { Config } from '../../platform/config.js';
import type { HttpClientOptions } from '../../platform/upstream/index.js';
import { createAcrossProvider } from './providers/across/index.js';
import { createDebridgeProvider } from './providers/debridge/index.js';
import { createLifiProvider } from './providers/lifi/index.js';
import { createMayanProvider } from './providers/mayan/index.js';
import { createRelayProvider } from './providers/relay/index.js';
import { createSandboxProvider } from './providers/sandbox/index.js';
import { createSquidProvider } from './providers/squid/index.js';
import type { BridgeProvider } from './providers/types.js';

export interface BridgeProviderOverrides {
  /** Resilience settings of the upstream HTTP clients (tests use short back-offs). */
  http?: Pick<HttpClientOptions, 'breaker' | 'backoff' | 'sleep'>;
}

/**
 * The two worlds a partner can be in. Live partners are served by the real upstreams only; sandbox
 * partners by the sandbox only, so a demo route can never be ranked among real ones and a live
 * partner can never be handed one.
 */
export interface BridgeProviderSet {
  /** Real upstreams, enabled or not, in the order their metadata is preferred when catalogues overlap. */
  live: BridgeProvider[];
  sandbox: BridgeProvider[];
}

export function createBridgeProviders(config: Config, overrides: BridgeProviderOverrides = {}): BridgeProviderSet {
  const { bridge, providerTimeoutMs } = config;
  // One retry: a transient 502 is worth a second try; the request's single deadline (see
  // BridgeService) cuts off whatever does not fit in PROVIDER_TIMEOUT_MS.
  const common = {
    timeoutMs: providerTimeoutMs,
    retries: 1,
    maxBodyBytes: config.upstreamMaxBodyBytes,
    ...(overrides.http ? { http: overrides.http } : {}),
  };
  return {
    live: [
      createLifiProvider({
        enabled: bridge.lifi.enabled,
        baseUrl: bridge.lifi.baseUrl,
        apiKey: bridge.lifi.apiKey,
        integrator: { integrator: bridge.integrator, fee: bridge.fee },
        ...common,
      }),
      createAcrossProvider({
        enabled: bridge.across.enabled,
        baseUrl: bridge.across.baseUrl,
        apiKey: bridge.across.apiKey,
        integratorId: bridge.across.integratorId,
        ...common,
      }),
      createRelayProvider({
        enabled: bridge.relay.enabled,
        baseUrl: bridge.relay.baseUrl,
        apiKey: bridge.relay.apiKey,
        integrator: { integrator: bridge.integrator, fee: bridge.fee },
        appFeeRecipient: bridge.relay.appFeeRecipient,
        ...common,
      }),
      createDebridgeProvider({
        enabled: bridge.debridge.enabled,
        baseUrl: bridge.debridge.baseUrl,
        accessToken: bridge.debridge.accessToken,
        integrator: { integrator: bridge.integrator, fee: bridge.fee },
        referralCode: bridge.debridge.referralCode,
        affiliateFeeRecipient: bridge.debridge.affiliateFeeRecipient,
        ...common,
      }),
      createMayanProvider({
        enabled: bridge.mayan.enabled,
        priceUrl: bridge.mayan.priceUrl,
        explorerUrl: bridge.mayan.explorerUrl,
        apiKey: bridge.mayan.apiKey,
        solanaRpcUrl: bridge.mayan.solanaRpcUrl,
        ...common,
      }),
      createSquidProvider({
        enabled: bridge.squid.enabled,
        baseUrl: bridge.squid.baseUrl,
        integratorId: bridge.squid.integratorId,
        ...common,
      }),
    ],
    sandbox: [createSandboxProvider()],
  };
}

export const isEnabled = (p: BridgeProvider): boolean => p.status.enabled;
