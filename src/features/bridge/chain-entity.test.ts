import { graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { buildSubgraph } from '../../platform/graphql/subgraph.js';
import { bridgeSubgraph } from './index.js';

/** The `Chain` entity as the gateway asks for it when another subgraph references a chain by `caip2Id`. */
describe('bridge subgraph: Chain entity', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it('declares Chain as an entity keyed by caip2Id', () => {
    expect(buildSubgraph(bridgeSubgraph).sdl).toMatch(/type Chain @key\(fields: "caip2Id"\)/);
  });

  it('resolves references: catalogue chains, registry chains the bridge does not serve, and null for unknown ids', async () => {
    const { schema } = buildSubgraph(bridgeSubgraph);
    const resolve = (partner: { sandbox: boolean } | null) =>
      graphql({
        schema,
        source: `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Chain { caip2Id name nativeToken isBridgeSupported } } }`,
        variableValues: {
          r: [
            { __typename: 'Chain', caip2Id: 'eip155:8453' },
            { __typename: 'Chain', caip2Id: 'move-mvmt:126' },
            { __typename: 'Chain', caip2Id: 'eip155:777777' },
          ],
        },
        contextValue: { services: app.services, log: app.services.log, memo: new Map(), partner, requestId: 't' },
      });
    // For a sandbox partner the sandbox bridges Base.
    const sandbox = await resolve({ sandbox: true });
    expect(sandbox.errors).toBeUndefined();
    expect(sandbox.data?._entities).toEqual([
      { caip2Id: 'eip155:8453', name: 'Base', nativeToken: 'ETH', isBridgeSupported: true },
      { caip2Id: 'move-mvmt:126', name: 'Movement', nativeToken: 'MOVE', isBridgeSupported: false },
      null,
    ]);
    // Anyone else is served by the upstreams, none of which is configured here: still named, not bridged.
    const live = await resolve(null);
    expect(live.errors).toBeUndefined();
    expect(live.data?._entities).toEqual([
      { caip2Id: 'eip155:8453', name: 'Base', nativeToken: 'ETH', isBridgeSupported: false },
      { caip2Id: 'move-mvmt:126', name: 'Movement', nativeToken: 'MOVE', isBridgeSupported: false },
      null,
    ]);
  });
});
