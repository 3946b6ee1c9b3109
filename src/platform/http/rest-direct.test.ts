import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { restRoutes, subgraphs } from '../../../test/support/features.js';
import { CompiledOperations } from '../gateway/compiled.js';
import { buildSupergraph } from '../gateway/supergraph.js';

/**
 * REST routes are persisted operations: each one the gateway would answer with one fetch from an
 * in-process subgraph runs compiled, without Apollo's pipeline (rest-plugin.ts). A route that silently
 * fell back to the gateway would still answer correctly, only slower — so which ones compile is pinned.
 */
describe('REST routes run compiled', async () => {
  const supergraph = await buildSupergraph(subgraphs);

  it('compiles every route whose operation is one in-process fetch, and only falls back for remote subgraphs', () => {
    const compiled = new CompiledOperations(supergraph);
    const viaGateway = restRoutes
      .filter((route) => !compiled.executorFor(parse(route.operation)))
      .map((route) => `${route.method} ${route.url}`);
    expect(viaGateway).toEqual([]);

    const allRemote = new CompiledOperations(
      supergraph,
      supergraph.subgraphs.map((s) => s.name),
    );
    expect(restRoutes.filter((route) => allRemote.executorFor(parse(route.operation)))).toEqual([]);
  });
});
