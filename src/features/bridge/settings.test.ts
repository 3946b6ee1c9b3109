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

  it('Mayan: on with both API URLs or MAYAN_ENABLED=true alone; key and Solana RPC read', () => {
    expect(loadConfig({}).bridge.mayan.enabled).toBe(false);
    expect(loadConfig({ MAYAN_PRICE_API_URL: 'http://127.0.0.1:1/v3' }).bridge.mayan.enabled).toBe(false);
    const both = loadConfig({
      MAYAN_PRICE_API_URL: 'http://127.0.0.1:1/v3',
      MAYAN_EXPLORER_API_URL: 'http://127.0.0.1:2/v3',
      MAYAN_API_KEY: 'mk',
      MAYAN_SOLANA_RPC_URL: 'http://127.0.0.1:3',
    }).bridge.mayan;
    expect(both).toEqual({
      enabled: true,
      priceUrl: 'http://127.0.0.1:1/v3',
      explorerUrl: 'http://127.0.0.1:2/v3',
      apiKey: 'mk',
      solanaRpcUrl: 'http://127.0.0.1:3',
    });
    expect(loadConfig({ MAYAN_ENABLED: 'true' }).bridge.mayan).toMatchObject({ enabled: true, priceUrl: undefined });
  });

  it('Squid: on when SQUID_INTEGRATOR_ID is set, unless SQUID_ENABLED=false', () => {
    expect(loadConfig({ SQUID_API_URL: 'http://127.0.0.1:1' }).bridge.squid.enabled).toBe(false);
    expect(loadConfig({ SQUID_INTEGRATOR_ID: 'acme' }).bridge.squid).toEqual({
      enabled: true,
      baseUrl: undefined,
      integratorId: 'acme',
    });
    expect(loadConfig({ SQUID_INTEGRATOR_ID: 'acme', SQUID_ENABLED: 'false' }).bridge.squid.enabled).toBe(false);
  });

  it.each([
    ['ACROSS_INTEGRATOR_ID', { ACROSS_INTEGRATOR_ID: '0xdeadbeef' }],
    ['BRIDGE_INTEGRATOR', { BRIDGE_INTEGRATOR: 'has space' }],
    ['BRIDGE_FEE', { BRIDGE_INTEGRATOR: 'cipgate', BRIDGE_FEE: '0.5' }],
    ['BRIDGE_FEE', { BRIDGE_INTEGRATOR: 'cipgate', BRIDGE_FEE: '-0.01' }],
    ['BRIDGE_FEE', { BRIDGE_INTEGRATOR: 'cipgate', BRIDGE_FEE: 'abc' }],
    ['BRIDGE_FEE needs BRIDGE_INTEGRATOR', { BRIDGE_FEE: '0.01' }],
    ['BRIDGE_QUOTE_TTL_SECONDS', { BRIDGE_QUOTE_TTL_SECONDS: '5' }],
    ['MAYAN_PRICE_API_URL', { MAYAN_PRICE_API_URL: 'ftp://x' }],
    ['MAYAN_SOLANA_RPC_URL', { MAYAN_SOLANA_RPC_URL: 'not a url' }],
    ['SQUID_API_URL', { SQUID_API_URL: 'nope' }],
  ])('a bad %s is a ConfigError naming it', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('Relay and deBridge: a URL enables them, ENABLED=true alone uses the public API; keys, referral code and fee recipients are read', () => {
    expect(loadConfig({}).bridge).toMatchObject({ relay: { enabled: false }, debridge: { enabled: false } });
    const { bridge } = loadConfig({
      RELAY_API_URL: 'http://127.0.0.1:1/relay',
      RELAY_API_KEY: 'rk',
      RELAY_APP_FEE_RECIPIENT: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0',
      DEBRIDGE_ENABLED: 'true',
      DEBRIDGE_ACCESS_TOKEN: 'dt',
      DEBRIDGE_REFERRAL_CODE: '31805',
      DEBRIDGE_AFFILIATE_FEE_RECIPIENT: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0',
    });
    expect(bridge.relay).toMatchObject({ enabled: true, baseUrl: 'http://127.0.0.1:1/relay', apiKey: 'rk' });
    expect(bridge.relay.appFeeRecipient?.toLowerCase()).toBe('0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea0');
    expect(bridge.debridge).toMatchObject({
      enabled: true,
      baseUrl: undefined,
      accessToken: 'dt',
      referralCode: 31805,
    });
    expect(loadConfig({ RELAY_API_URL: 'http://127.0.0.1:1', RELAY_ENABLED: 'false' }).bridge.relay.enabled).toBe(
      false,
    );
  });

  it.each([
    ['DEBRIDGE_REFERRAL_CODE', { DEBRIDGE_REFERRAL_CODE: 'abc' }],
    ['RELAY_APP_FEE_RECIPIENT', { RELAY_APP_FEE_RECIPIENT: 'not-an-address' }],
    ['DEBRIDGE_AFFILIATE_FEE_RECIPIENT', { DEBRIDGE_AFFILIATE_FEE_RECIPIENT: '0x12' }],
    ['RELAY_API_URL', { RELAY_API_URL: 'ftp://relay' }],
  ])('a bad %s is a ConfigError naming it (Relay, deBridge)', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
