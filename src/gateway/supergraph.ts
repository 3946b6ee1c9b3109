import { subgraphs as allSubgraphs } from '../subgraphs/index.js';
import { type BuiltSubgraph, buildSubgraph, type SubgraphDefinition } from '../subgraphs/subgraph.js';
import { composeSupergraph } from './compose.js';
import { type PriceTable, readPrices } from './prices.js';

export interface Supergraph {
  sdl: string;
  apiSdl: string;
  subgraphs: BuiltSubgraph[];
  prices: PriceTable;
}

let cached: Supergraph | undefined;

/** Builds and composes every subgraph once per process: schema building is start-up work, not per request. */
export function buildSupergraph(definitions: SubgraphDefinition[] = allSubgraphs): Supergraph {
  if (definitions === allSubgraphs && cached) return cached;
  const subgraphs = definitions.map(buildSubgraph);
  const { supergraphSdl: sdl, apiSdl } = composeSupergraph(subgraphs);
  const supergraph = { sdl, apiSdl, subgraphs, prices: readPrices(sdl) };
  if (definitions === allSubgraphs) cached = supergraph;
  return supergraph;
}
