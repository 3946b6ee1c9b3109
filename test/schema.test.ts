import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../codegen.js';
import { buildSupergraph } from '../src/gateway/supergraph.js';

const committed = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

// The committed schema/ files are what Apollo Router and codegen consume: they must match the code.
describe('committed schema and generated types', () => {
  const supergraph = buildSupergraph();

  it('schema/*.graphql match the composed subgraphs (run npm run compose)', () => {
    expect(committed('schema/supergraph.graphql')).toBe(`${supergraph.sdl.trim()}\n`);
    expect(committed('schema/api.graphql')).toBe(`${supergraph.apiSdl.trim()}\n`);
    for (const subgraph of supergraph.subgraphs) {
      expect(committed(`schema/${subgraph.name}.graphql`)).toBe(`${subgraph.sdl.trim()}\n`);
    }
  });

  it('src/graphql/generated/operations.ts matches the REST operations (run npm run codegen)', async () => {
    const [output] = await generate({ ...config, silent: true, cwd: new URL('..', import.meta.url).pathname }, false);
    expect(committed('src/graphql/generated/operations.ts')).toBe(output.content);
  });

  it('prices come from the @credits declarations', () => {
    expect(Object.fromEntries([...supergraph.prices].filter(([, p]) => p > 0))).toEqual({
      identitySearch: 1,
      bridgeChains: 1,
      bridgeTokens: 1,
      bridgeQuote: 2,
      bridgeStatus: 1,
    });
    expect(supergraph.prices.get('stats')).toBe(0);
  });
});
