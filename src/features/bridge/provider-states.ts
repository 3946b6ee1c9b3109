import type { BridgeService } from './service.js';

/**
 * Each live bridge provider by name, `enabled` or `disabled: <reason>`, in the order quotes are asked: the
 * one listing `/readyz` and the start-up line show, so an operator reads the same words in both.
 */
export function bridgeProviderStates(bridge: Pick<BridgeService, 'providerStates'>): Record<string, string> {
  return Object.fromEntries(
    bridge.providerStates(false).map((p) => [p.name, p.enabled ? 'enabled' : `disabled: ${p.reason ?? 'unknown'}`]),
  );
}
