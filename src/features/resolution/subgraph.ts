import type { SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { NameOwnerResolver, ResolutionResolver } from './resolution.resolver.js';
import type { MnsSources } from './sources/index.js';

/** Public, free name resolution over the MNS registry (the /api/public REST paths run on it). */
export const resolutionSubgraph: SubgraphDefinition = {
  name: 'resolution',
  resolvers: [ResolutionResolver, NameOwnerResolver],
};

declare module '../../platform/services.js' {
  interface Services {
    /** Where `.snow` names are read: local registry, upstream MNS API, chain, asked in that order. */
    mns: MnsSources;
  }
}
