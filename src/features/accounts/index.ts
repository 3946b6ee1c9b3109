import type { SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { StatsResolver } from './stats.resolver.js';

export const accountsSubgraph: SubgraphDefinition = {
  name: 'accounts',
  resolvers: [StatsResolver],
};
