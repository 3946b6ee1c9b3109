import type { SubgraphDefinition } from '../platform/graphql/subgraph.js';
import { accountsSubgraph } from './accounts/index.js';
import { bridgeSubgraph } from './bridge/index.js';
import { identitySubgraph } from './identity/subgraph.js';
import { resolutionSubgraph } from './resolution/subgraph.js';

/** Every subgraph of the supergraph. The gateway composes them; each can also run as its own server. */
export const subgraphs: SubgraphDefinition[] = [accountsSubgraph, bridgeSubgraph, identitySubgraph, resolutionSubgraph];
