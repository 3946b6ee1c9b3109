import { chainById } from '../../platform/chains/registry.js';
import type { RequestContext } from '../../platform/graphql/context.js';
import type { SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { BridgeResolver } from './bridge.resolver.js';
import type { BridgeService } from './service.js';
import type { Chain } from './types.js';
import { WebhooksResolver } from './webhooks/index.js';

/**
 * A chain referenced from another subgraph (an identity's multichain address): the catalogue's entry,
 * or the shared registry's description for a chain the bridge does not serve (Movement), so the
 * reference still has a name. Unknown chains resolve to null.
 */
async function resolveChain(reference: Record<string, unknown>, context: unknown): Promise<Chain | null> {
  const caip2Id = String(reference.caip2Id ?? '');
  const ctx = context as RequestContext;
  try {
    const listed = await ctx.services.bridge.chain(caip2Id, ctx.partner?.sandbox === true);
    if (listed) return listed;
  } catch (err) {
    // A reference must not fail the identity answer it decorates.
    ctx.log.warn({ err }, 'bridge catalogue unavailable for a chain reference');
  }
  const known = chainById(caip2Id);
  return known
    ? { caip2Id, name: known.name, nativeToken: known.nativeToken, logoURI: known.logoURI, isBridgeSupported: false }
    : null;
}

export const bridgeSubgraph: SubgraphDefinition = {
  name: 'bridge',
  resolvers: [BridgeResolver, WebhooksResolver],
  references: { Chain: resolveChain },
};

declare module '../../platform/services.js' {
  interface Services {
    /** Bridge providers, catalogue cache, quote aggregation and transfer status. */
    bridge: BridgeService;
  }
}
