import type { SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { NameOwnerResolver, ResolutionResolver } from './resolution.resolver.js';

/** Public, free name resolution over the MNS registry (the /api/public REST paths run on it). */
export const resolutionSubgraph: SubgraphDefinition = {
  name: 'resolution',
  resolvers: [ResolutionResolver, NameOwnerResolver],
};
