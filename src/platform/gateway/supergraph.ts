import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PriceTable, readPrices } from '../credits/prices.js';
import { type BuiltSubgraph, buildSubgraph, type SubgraphDefinition } from '../graphql/subgraph.js';

export interface Supergraph {
  sdl: string;
  apiSdl: string;
  subgraphs: BuiltSubgraph[];
  prices: PriceTable;
  /**
   * `committed`: read from schema/ because every subgraph printed exactly as the committed one;
   * `composed`: composed in-process.
   */
  source: 'committed' | 'composed';
}

export interface BuildSupergraphOptions {
  /**
   * Compose even when schema/ matches: for `npm run compose` and the test that checks schema/ is what
   * composition produces — reading schema/ there would only compare the files with themselves.
   */
  compose?: boolean;
}

const cached = new WeakMap<readonly SubgraphDefinition[], Promise<Supergraph>>();
const composedOnly = new WeakMap<readonly SubgraphDefinition[], Promise<Supergraph>>();

/**
 * Builds the given subgraphs and their supergraph once per list: schema building is start-up work, not
 * per request. The composition root passes the features' subgraphs (src/features/index.ts).
 *
 * Composition (@apollo/composition) costs ~0.35 s of start-up, and its output depends only on the
 * subgraphs' SDL and names, which `npm run compose` writes to schema/ beside the supergraph
 * and API schema it composed from them (test/schema.test.ts keeps them up to date). So when every
 * subgraph prints exactly as its committed file and the committed supergraph joins exactly these
 * subgraphs, the committed supergraph is the composition and is read instead; anything else — a subgraph
 * a test adds, a changed field, schema/ missing from an install — composes, as before. The output also
 * depends on composition's version: test/schema.test.ts composes afresh, so an upgrade that changes it
 * fails there until `npm run compose` rewrites schema/.
 */
export function buildSupergraph(
  definitions: readonly SubgraphDefinition[],
  options: BuildSupergraphOptions = {},
): Promise<Supergraph> {
  const cache = options.compose ? composedOnly : cached;
  const known = cache.get(definitions);
  if (known) return known;
  const building = build(definitions, options.compose === true);
  cache.set(definitions, building);
  // A failure (an unpriced field, a composition error) is not remembered: the next call reports it afresh.
  building.catch(() => cache.delete(definitions));
  return building;
}

async function build(definitions: readonly SubgraphDefinition[], forceCompose: boolean): Promise<Supergraph> {
  const subgraphs = definitions.map(buildSubgraph);
  const committed = forceCompose ? undefined : readCommitted(subgraphs);
  if (committed) return { ...committed, subgraphs, prices: readPrices(committed.sdl), source: 'committed' };
  // Imported here so that a process serving the committed supergraph never loads composition.
  const { composeSupergraph } = await import('./compose.js');
  const { supergraphSdl: sdl, apiSdl } = composeSupergraph(subgraphs);
  return { sdl, apiSdl, subgraphs, prices: readPrices(sdl), source: 'composed' };
}

/** The committed supergraph and API schema, if they were composed from exactly these subgraphs. */
function readCommitted(subgraphs: readonly BuiltSubgraph[]): { sdl: string; apiSdl: string } | undefined {
  const root = packageRoot();
  if (!root) return undefined;
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(join(root, 'schema', file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const supergraphFile = read('supergraph.graphql');
  const apiFile = read('api.graphql');
  if (supergraphFile === undefined || apiFile === undefined) return undefined;
  // The graphs the committed supergraph joins, compared as sorted lists so that a duplicated name in
  // the definitions cannot pass for a missing one.
  const joined = [...supergraphFile.matchAll(/@join__graph\(name: "([^"]*)"/g)].map((m) => m[1]).sort();
  const names = subgraphs.map((s) => s.name).sort();
  if (joined.length !== names.length || joined.some((name, i) => name !== names[i])) return undefined;
  // Printed as src/compose.ts writes it.
  if (subgraphs.some((s) => read(`${s.name}.graphql`) !== `${s.sdl.trim()}\n`)) return undefined;
  // compose.ts adds the final newline that composition's output does not have.
  return { sdl: withoutFinalNewline(supergraphFile), apiSdl: withoutFinalNewline(apiFile) };
}

const withoutFinalNewline = (text: string): string => (text.endsWith('\n') ? text.slice(0, -1) : text);

/**
 * The directory of package.json above this module: the repository under vitest (src/platform/gateway)
 * and after `npm run build` (dist/src/platform/gateway), /app in the image.
 */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
