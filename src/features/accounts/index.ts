import type { SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { SelfServiceResolver } from './self-service.resolver.js';
import { StatsResolver } from './stats.resolver.js';

export const accountsSubgraph: SubgraphDefinition = {
  name: 'accounts',
  resolvers: [StatsResolver, SelfServiceResolver],
};
