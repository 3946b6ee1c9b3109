import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.js';

describe('bridge settings', () => {
  it('defaults: no integrator, no fee, no Across key or id, routes valid for 10 minutes', () => {
    const { bridge } = loadConfig({});
    expect(bridge).toMatchObject({ integrator: undefined, fee: undefined, quoteTtlSeconds: 600 });
    expect(bridge.across).toMatchObject({ apiKey: undefined, integratorId: undefined });
  });

  it('reads BRIDGE_INTEGRATOR, BRIDGE_FEE, ACROSS_API_KEY, ACROSS_INTEGRATOR_ID and BRIDGE_QUOTE_TTL_SECONDS', () => {
    const { bridge } = loadConfig({
      BRIDGE_INTEGRATOR: 'cipgate',
      BRIDGE_FEE: '0.003',
      ACROSS_API_KEY: 'k',
      ACROSS_INTEGRATOR_ID: '0x00AB',
      BRIDGE_QUOTE_TTL_SECONDS: '120',
    });
    expect(bridge).toMatchObject({ integrator: 'cipgate', fee: 0.003, quoteTtlSeconds: 120 });
    expect(bridge.across).toMatchObject({ apiKey: 'k', integratorId: '0x00AB' });
  });

  it.each([
    ['ACROSS_INTEGRATOR_ID', { ACROSS_INTEGRATOR_ID: '0xdeadbeef' }],
    ['BRIDGE_INTEGRATOR', { BRIDGE_INTEGRATOR: 'has space' }],
    ['BRIDGE_FEE', { BRIDGE_INTEGRATOR: 'cipgate', BRIDGE_FEE: '0.5' }],
    ['BRIDGE_FEE', { BRIDGE_INTEGRATOR: 'cipgate', BRIDGE_FEE: '-0.01' }],
    ['BRIDGE_FEE', { BRIDGE_INTEGRATOR: 'cipgate', BRIDGE_FEE: 'abc' }],
    ['BRIDGE_FEE needs BRIDGE_INTEGRATOR', { BRIDGE_FEE: '0.01' }],
    ['BRIDGE_QUOTE_TTL_SECONDS', { BRIDGE_QUOTE_TTL_SECONDS: '5' }],
  ])('a bad %s is a ConfigError naming it', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
