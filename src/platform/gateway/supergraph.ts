import { type BuiltSubgraph, buildSubgraph, type SubgraphDefinition } from '../graphql/subgraph.js';
import { composeSupergraph } from './compose.js';
import { type PriceTable, readPrices } from './prices.js';

export interface Supergraph {
  sdl: string;
  apiSdl: string;
  subgraphs: BuiltSubgraph[];
  prices: PriceTable;
}

const cached = new WeakMap<readonly SubgraphDefinition[], Supergraph>();

/**
 * Builds and composes the given subgraphs once per list: schema building is start-up work, not per
 * request. The composition root passes the features' subgraphs (src/features/index.ts).
 */
export function buildSupergraph(definitions: readonly SubgraphDefinition[]): Supergraph {
  const known = cached.get(definitions);
  if (known) return known;
  const subgraphs = definitions.map(buildSubgraph);
  const { supergraphSdl: sdl, apiSdl } = composeSupergraph(subgraphs);
  const supergraph = { sdl, apiSdl, subgraphs, prices: readPrices(sdl) };
  cached.set(definitions, supergraph);
  return supergraph;
}
