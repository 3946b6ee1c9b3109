import { describe, expect, it, vi } from 'vitest';
import { meteredSubgraph } from '../../../test/support/paid-subgraph.js';
import { subgraphs } from '../../features/index.js';
import { buildSupergraph } from './supergraph.js';

// Counts how often compose.js (the only importer of @apollo/composition) is loaded: vitest calls a mock
// factory on the module's first import, so 0 means composition never entered the process.
const composeModule = vi.hoisted(() => ({ loads: 0 }));
vi.mock('./compose.js', async (importOriginal) => {
  composeModule.loads++;
  return importOriginal();
});

describe('supergraph from schema/ or composition', () => {
  // In order: the first case must run before anything in this file composes.
  it("reads the product's subgraphs from the committed schema/ without loading composition", async () => {
    const supergraph = await buildSupergraph(subgraphs);
    expect(supergraph.source).toBe('committed');
    expect(composeModule.loads).toBe(0);
    expect(supergraph.subgraphs.map((s) => s.name).sort()).toEqual(subgraphs.map((s) => s.name).sort());
    expect(supergraph.prices.get('query.bridgeQuote')).toBe(2);
  });

  it('reads exactly what composition produces, down to the last byte', async () => {
    const committed = await buildSupergraph(subgraphs);
    const composed = await buildSupergraph(subgraphs, { compose: true });
    expect(composed.source).toBe('composed');
    expect(composeModule.loads).toBe(1);
    expect(committed.sdl).toBe(composed.sdl);
    expect(committed.apiSdl).toBe(composed.apiSdl);
    expect([...committed.prices]).toEqual([...composed.prices]);
  });

  it('reads schema/ whatever the order of the subgraphs, since composition does not depend on it', async () => {
    const reversed = [...subgraphs].reverse();
    const committed = await buildSupergraph(reversed);
    expect(committed.source).toBe('committed');
    const composed = await buildSupergraph(reversed, { compose: true });
    expect(committed.sdl).toBe(composed.sdl);
    expect(committed.apiSdl).toBe(composed.apiSdl);
  });

  it('composes when a subgraph is added, and the result differs from schema/', async () => {
    const product = await buildSupergraph(subgraphs);
    const withMetered = await buildSupergraph([...subgraphs, meteredSubgraph]);
    expect(withMetered.source).toBe('composed');
    expect(withMetered.sdl).not.toBe(product.sdl);
    expect(withMetered.sdl).toContain('@join__graph(name: "metered"');
    expect(withMetered.apiSdl).toMatch(/meteredEcho\(text: String!\): String!/);
    expect(withMetered.prices.get('query.meteredTwo')).toBe(2);
  });

  it('composes when a subgraph is missing or renamed, since schema/ joins other graphs', async () => {
    const withoutBridge = subgraphs.filter((s) => s.name !== 'bridge');
    expect(withoutBridge.length).toBe(subgraphs.length - 1);
    expect((await buildSupergraph(withoutBridge)).source).toBe('composed');
    const renamed = subgraphs.map((s) => (s.name === 'accounts' ? { ...s, name: 'accounts2' } : s));
    const composed = await buildSupergraph(renamed);
    expect(composed.source).toBe('composed');
    expect(composed.sdl).toContain('@join__graph(name: "accounts2"');
  });

  it('composes when a subgraph of the same name prints differently from its committed file', async () => {
    const changed = subgraphs.map((s) => (s.name === 'bridge' ? { ...meteredSubgraph, name: 'bridge' } : s));
    const composed = await buildSupergraph(changed);
    expect(composed.source).toBe('composed');
    expect(composed.apiSdl).toContain('meteredEcho');
  });

  it('builds once per list of subgraphs', async () => {
    expect(buildSupergraph(subgraphs)).toBe(buildSupergraph(subgraphs));
  });
});
