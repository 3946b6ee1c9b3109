import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults to the embedded database on port 4000 with the explorer on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      databaseUrl: 'file:./data/cipgate.db',
      graphqlExplorer: true,
      sandboxSeed: true,
    });
    expect(config.redisUrl).toBeUndefined();
  });

  it('selects PostgreSQL by URL and does not seed a sandbox partner there', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/cipgate' });
    expect(config.sandboxSeed).toBe(false);
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        GRAPHQL_EXPLORER: 'maybe',
        REDIS_URL: 'http://x',
        EVM_RPC_URLS: 'eth=x',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'GRAPHQL_EXPLORER', 'REDIS_URL', 'EVM_RPC_URLS'])
        expect(message).toContain(name);
    }
  });

  it('parses per-chain RPC URLs and remote subgraphs', () => {
    const config = loadConfig({
      EVM_RPC_URLS: 'eip155:1=https://eth.example, eip155:8453=http://127.0.0.1:8545',
      SUBGRAPH_URLS: 'identity=http://10.0.0.2:4001/graphql',
      SUBGRAPH_SECRET: 'x'.repeat(32),
    });
    expect(config.bridge.rpcUrls).toEqual({
      'eip155:1': 'https://eth.example',
      'eip155:8453': 'http://127.0.0.1:8545',
    });
    expect(config.subgraphUrls).toEqual({ identity: 'http://10.0.0.2:4001/graphql' });
  });

  it('bounds how long a rate-limit count waits on Redis', () => {
    expect(loadConfig({}).rateLimit.redisTimeoutMs).toBe(50);
    expect(loadConfig({ RATE_LIMIT_REDIS_TIMEOUT_MS: '2000' }).rateLimit.redisTimeoutMs).toBe(2000);
    expect(() => loadConfig({ RATE_LIMIT_REDIS_TIMEOUT_MS: '0' })).toThrow(/RATE_LIMIT_REDIS_TIMEOUT_MS/);
    expect(() => loadConfig({ RATE_LIMIT_REDIS_TIMEOUT_MS: '60000' })).toThrow(/RATE_LIMIT_REDIS_TIMEOUT_MS/);
  });

  it('requires a long SUBGRAPH_SECRET with remote subgraphs', () => {
    expect(() => loadConfig({ SUBGRAPH_URLS: 'identity=http://10.0.0.2:4001/graphql' })).toThrow(/SUBGRAPH_SECRET/);
    expect(() => loadConfig({ SUBGRAPH_SECRET: 'short' })).toThrow(/SUBGRAPH_SECRET must be at least 32/);
    expect(loadConfig({}).subgraphHost).toBe('127.0.0.1');
  });
});
