import type { SubgraphDefinition } from '../subgraph.js';
import { IdentityResolver } from './identity.resolver.js';
import { ChainReference } from './types.js';

export const identitySubgraph: SubgraphDefinition = {
  name: 'identity',
  resolvers: [IdentityResolver],
  orphanedTypes: [ChainReference],
};
