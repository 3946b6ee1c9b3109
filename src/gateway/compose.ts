import { composeServices } from '@apollo/composition';
import type { BuiltSubgraph } from '../subgraphs/subgraph.js';

/** Composes the subgraphs into a supergraph SDL in-process (no rover binary), failing loudly on errors. */
export function composeSupergraph(subgraphs: BuiltSubgraph[]): string {
  const result = composeServices(
    subgraphs.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: `http://subgraph.local/${s.name}` })),
  );
  if (result.errors?.length) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `  - ${e.message}`).join('\n')}`);
  }
  return result.supergraphSdl as string;
}
