import { disabled, UpstreamError } from '../../../platform/upstream/status.js';
import type { NamingProvider, NamingProviderInfo } from './types.js';

/**
 * A provider with no upstream configured, built from its constant description alone so that the
 * provider's own code and libraries are never loaded. It says why in `status` and refuses everything,
 * so a caller that ignores the status gets an error rather than a misleading "no such name".
 */
export function createUnconfiguredProvider(info: NamingProviderInfo, reason: string): NamingProvider {
  const refuse = (): never => {
    throw new UpstreamError(info.provider, `disabled: ${reason}`);
  };
  return {
    info,
    status: disabled(reason),
    normalize: refuse,
    resolve: async () => refuse(),
    reverse: async () => refuse(),
    records: async () => refuse(),
    async candidates() {
      return [];
    },
  };
}
