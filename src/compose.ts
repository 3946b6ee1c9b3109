import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { subgraphs } from './features/index.js';
import { buildSupergraph } from './platform/gateway/supergraph.js';

/**
 * `npm run compose`: writes each subgraph's SDL, the composed supergraph (for Apollo Router or a
 * gateway elsewhere) and the client-facing API schema (for codegen) into schema/.
 */
const dir = join(process.cwd(), 'schema');
mkdirSync(dir, { recursive: true });
// Composes even when schema/ matches: these files are what the committed-supergraph shortcut trusts.
const supergraph = await buildSupergraph(subgraphs, { compose: true });
for (const subgraph of supergraph.subgraphs) {
  writeFileSync(join(dir, `${subgraph.name}.graphql`), `${subgraph.sdl.trim()}\n`);
}
writeFileSync(join(dir, 'supergraph.graphql'), `${supergraph.sdl.trim()}\n`);
writeFileSync(join(dir, 'api.graphql'), `${supergraph.apiSdl.trim()}\n`);
process.stdout.write(
  `Wrote schema/{${supergraph.subgraphs.map((s) => s.name).join(',')}}.graphql, schema/supergraph.graphql and schema/api.graphql\n`,
);
