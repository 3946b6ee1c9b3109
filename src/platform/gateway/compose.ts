import { composeServices } from '@apollo/composition';
import { printSchema } from 'graphql';
import type { BuiltSubgraph } from '../graphql/subgraph.js';

export interface Composition {
  /** The supergraph SDL (with join__ directives), for the gateway or Apollo Router. */
  supergraphSdl: string;
  /** The schema clients see. */
  apiSdl: string;
}

/** Composes the subgraphs into a supergraph in-process (no rover binary), failing loudly on errors. */
export function composeSupergraph(subgraphs: BuiltSubgraph[]): Composition {
  const result = composeServices(
    subgraphs.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: subgraphUrl(s.name) })),
  );
  if (result.errors?.length || !result.schema) {
    throw new Error(
      `Supergraph composition failed:\n${(result.errors ?? []).map((e) => `  - ${e.message}`).join('\n')}`,
    );
  }
  return { supergraphSdl: result.supergraphSdl, apiSdl: printSchema(result.schema.toAPISchema().toGraphQLJSSchema()) };
}

/**
 * Where each subgraph listens when run as its own server (`npm run subgraph -- <name>`); the URL is
 * written into the supergraph for Apollo Router and overridden at run time by SUBGRAPH_URLS.
 */
export const subgraphUrl = (name: string): string => `http://localhost:4000/subgraphs/${name}/graphql`;
