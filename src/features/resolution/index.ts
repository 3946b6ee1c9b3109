/**
 * What other features may use of resolution: the MNS naming provider (which the composition root hands
 * to identity search) and the importer that fills the MNS registry. Nothing here loads the subgraph
 * (subgraph.ts).
 */
export { createMnsProvider } from './naming-provider.js';
export { importNames } from './registry/import.js';
