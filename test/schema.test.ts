import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import config from '../codegen.js';
import { subgraphs } from '../src/features/index.js';
import { buildSupergraph } from '../src/platform/gateway/supergraph.js';

const committed = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

// The committed schema/ files are what Apollo Router and codegen consume: they must match the code.
describe('committed schema and generated types', async () => {
  // Composed, not read from schema/: the check is that schema/ is what composition produces.
  const supergraph = await buildSupergraph(subgraphs, { compose: true });

  it('schema/*.graphql match the composed subgraphs (run npm run compose)', () => {
    expect(committed('schema/supergraph.graphql')).toBe(`${supergraph.sdl.trim()}\n`);
    expect(committed('schema/api.graphql')).toBe(`${supergraph.apiSdl.trim()}\n`);
    for (const subgraph of supergraph.subgraphs) {
      expect(committed(`schema/${subgraph.name}.graphql`)).toBe(`${subgraph.sdl.trim()}\n`);
    }
  });

  it('src/generated/operations.ts matches the REST operations (run npm run codegen)', async () => {
    const [output] = await generate({ ...config, silent: true, cwd: new URL('..', import.meta.url).pathname }, false);
    expect(committed('src/generated/operations.ts')).toBe(output.content);
  });

  it('every root field of every operation type of the composed schema declares its price', () => {
    const api = buildSchema(supergraph.apiSdl);
    const declared: Record<string, number | undefined> = {};
    for (const [operation, type] of [
      ['query', api.getQueryType()],
      ['mutation', api.getMutationType()],
      ['subscription', api.getSubscriptionType()],
    ] as const) {
      for (const name of Object.keys(type?.getFields() ?? {})) {
        declared[`${operation}.${name}`] = supergraph.prices.get(`${operation}.${name}`);
      }
    }
    expect(declared).toEqual({
      'query.stats': 0,
      'query.usage': 0,
      'query.apiKeys': 0,
      'query.identitySearch': 1,
      'query.evmPrimaryName': 0,
      'query.namingProviders': 0,
      'query.bridgeChains': 1,
      'query.bridgeTokens': 1,
      'query.bridgeQuote': 2,
      'query.bridgeStatus': 1,
      'query.bridgeProviders': 0,
      'query.webhooks': 0,
      'query.webhookDeliveries': 0,
      'mutation.registerWebhook': 0,
      'mutation.deleteWebhook': 0,
      'mutation.testWebhook': 0,
      'subscription.bridgeStatusChanged': 0,
      'query.nameOwner': 0,
      'query.nameOwners': 0,
      'query.primaryName': 0,
      'query.primaryNames': 0,
      'query.nameMetadata': 0,
    });
    expect(supergraph.prices.size).toBe(Object.keys(declared).length);
  });
});
