import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('ROUTER_COPROCESSOR_SECRET', () => {
  const subgraph = { SUBGRAPH_SECRET: 's'.repeat(32) };
  it('is off unless set, and needs SUBGRAPH_SECRET and 32 URL-safe characters when set', () => {
    expect(loadConfig({}).routerCoprocessorSecret).toBeUndefined();
    expect(loadConfig({ ...subgraph, ROUTER_COPROCESSOR_SECRET: 'a'.repeat(32) }).routerCoprocessorSecret).toBe(
      'a'.repeat(32),
    );
    expect(() => loadConfig({ ...subgraph, ROUTER_COPROCESSOR_SECRET: 'short' })).toThrow(/ROUTER_COPROCESSOR_SECRET/);
    expect(() => loadConfig({ ...subgraph, ROUTER_COPROCESSOR_SECRET: `${'a'.repeat(32)}&x=1` })).toThrow(ConfigError);
    expect(() => loadConfig({ ROUTER_COPROCESSOR_SECRET: 'a'.repeat(32) })).toThrow(/SUBGRAPH_SECRET is required/);
  });
});
