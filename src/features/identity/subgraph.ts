import type { SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { IdentityResolver } from './identity.resolver.js';
import type { NamingProviders } from './provider-registry.js';
import type { IdentitySearch } from './search.js';
import { ChainReference } from './types.js';

export const identitySubgraph: SubgraphDefinition = {
  name: 'identity',
  resolvers: [IdentityResolver],
  orphanedTypes: [ChainReference],
};

declare module '../../platform/services.js' {
  interface Services {
    /** Naming providers (MNS, ENS, Basenames, SNS) as configured, enabled or not. */
    naming: NamingProviders;
    identity: IdentitySearch;
  }
}
