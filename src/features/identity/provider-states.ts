import type { NamingProviders } from './provider-registry.js';

/**
 * Each naming provider by id, `enabled` or `disabled: <reason>`, in ranking order: the one listing that
 * `/readyz` and the start-up line show, so an operator reads the same words in both.
 */
export function namingProviderStates(providers: NamingProviders): Record<string, string> {
  return Object.fromEntries(
    providers.all.map(({ info, status }) => [info.provider, status.enabled ? 'enabled' : `disabled: ${status.reason}`]),
  );
}
