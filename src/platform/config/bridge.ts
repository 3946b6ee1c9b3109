import type { PushSettings } from './push.js';
import type { Reader } from './values.js';

/** The bridge providers and what is passed to them, the catalogue, quotes, and the chains checked on. */
export interface BridgeSettings {
  lifi: { enabled: boolean; baseUrl: string | undefined; apiKey: string | undefined };
  across: {
    enabled: boolean;
    baseUrl: string | undefined;
    /** Sent as `Authorization: Bearer` (ACROSS_API_KEY). */
    apiKey: string | undefined;
    /** 2-byte hex id, sent as `integratorId` (ACROSS_INTEGRATOR_ID). */
    integratorId: string | undefined;
  };
  relay: {
    enabled: boolean;
    baseUrl: string | undefined;
    /** Sent as `x-api-key` (RELAY_API_KEY). */
    apiKey: string | undefined;
    /** EVM address credited with BRIDGE_FEE as Relay's app fee (RELAY_APP_FEE_RECIPIENT). */
    appFeeRecipient: string | undefined;
  };
  debridge: {
    enabled: boolean;
    baseUrl: string | undefined;
    /** Sent as the `accesstoken` query parameter (DEBRIDGE_ACCESS_TOKEN). */
    accessToken: string | undefined;
    /** deBridge's numeric referral code (DEBRIDGE_REFERRAL_CODE). */
    referralCode: number | undefined;
    /** EVM address credited with BRIDGE_FEE as the affiliate fee on EVM sources (DEBRIDGE_AFFILIATE_FEE_RECIPIENT). */
    affiliateFeeRecipient: string | undefined;
  };
  mayan: {
    enabled: boolean;
    /** Mayan's price API (quotes) and explorer API (status); both default to Mayan's public v3 hosts. */
    priceUrl: string | undefined;
    explorerUrl: string | undefined;
    /** Sent as the `apiKey` query parameter (MAYAN_API_KEY), which lifts Mayan's per-IP rate limit. */
    apiKey: string | undefined;
    /** Solana JSON-RPC the SDK reads lookup tables and a blockhash from; without it no Solana-source route. */
    solanaRpcUrl: string | undefined;
  };
  squid: {
    enabled: boolean;
    baseUrl: string | undefined;
    /** Sent as `x-integrator-id` (SQUID_INTEGRATOR_ID); Squid refuses every call without one. */
    integratorId: string | undefined;
  };
  /** Integrator name and fee fraction passed to upstreams that take them (LI.FI, Relay, deBridge). */
  integrator: string | undefined;
  fee: number | undefined;
  /** How long a quoted route may be executed (BRIDGE_QUOTE_TTL_SECONDS). */
  quoteTtlSeconds: number;
  /** RPC URL per CAIP-2 chain, for checking source transactions on chain. */
  rpcUrls: Record<string, string>;
  catalogueTtlSeconds: number;
  /** Status pushed to partners (webhooks, graphql-ws subscriptions), read by its own section. */
  push: PushSettings;
}

function evmRpcUrls(read: Reader): Record<string, string> {
  const rpcUrls: Record<string, string> = {};
  for (const pair of read.list('EVM_RPC_URLS')) {
    const at = pair.lastIndexOf('=');
    const chain = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at < 0 || !/^eip155:\d+$/.test(chain) || !/^https?:\/\//.test(value)) {
      read.problem(`EVM_RPC_URLS must be a comma-separated list of eip155:<id>=<http url>, got "${pair}"`);
    } else rpcUrls[chain] = value;
  }
  return rpcUrls;
}

export function bridgeSection(read: Reader): Omit<BridgeSettings, 'push'> {
  const lifiUrl = read.url('LIFI_API_URL', ['http:', 'https:']);
  const acrossUrl = read.url('ACROSS_API_URL', ['http:', 'https:']);
  const acrossIntegratorId = read.str('ACROSS_INTEGRATOR_ID');
  if (acrossIntegratorId !== undefined && !/^0x[0-9a-fA-F]{4}$/.test(acrossIntegratorId)) {
    read.problem(`ACROSS_INTEGRATOR_ID must be a 2-byte hex id such as 0x00ab, got "${acrossIntegratorId}"`);
  }
  const relayUrl = read.url('RELAY_API_URL', ['http:', 'https:']);
  const debridgeUrl = read.url('DEBRIDGE_API_URL', ['http:', 'https:']);
  const referralText = read.str('DEBRIDGE_REFERRAL_CODE');
  const referralCode = referralText === undefined ? undefined : Number(referralText);
  if (referralText !== undefined && !(/^\d{1,9}$/.test(referralText) && (referralCode ?? 0) > 0)) {
    read.problem(`DEBRIDGE_REFERRAL_CODE must be deBridge's numeric referral code, got "${referralText}"`);
  }
  const mayanPriceUrl = read.url('MAYAN_PRICE_API_URL', ['http:', 'https:']);
  const mayanExplorerUrl = read.url('MAYAN_EXPLORER_API_URL', ['http:', 'https:']);
  const squidUrl = read.url('SQUID_API_URL', ['http:', 'https:']);
  const squidIntegratorId = read.str('SQUID_INTEGRATOR_ID');
  const integrator = read.str('BRIDGE_INTEGRATOR');
  if (integrator !== undefined && !/^[A-Za-z0-9._-]{1,23}$/.test(integrator)) {
    read.problem(`BRIDGE_INTEGRATOR must be 1 to 23 letters, digits, ".", "_" or "-", got "${integrator}"`);
  }
  const feeText = read.str('BRIDGE_FEE');
  const fee = feeText === undefined ? undefined : Number(feeText);
  if (fee !== undefined && !(/^\d*\.?\d+$/.test(feeText ?? '') && fee >= 0 && fee < 0.1)) {
    read.problem(`BRIDGE_FEE must be a fraction from 0 to below 0.1 (0.003 is 0.3%), got "${feeText}"`);
  }
  if (fee !== undefined && fee > 0 && integrator === undefined) {
    read.problem('BRIDGE_FEE needs BRIDGE_INTEGRATOR: upstreams credit fees to an integrator');
  }
  return {
    // A provider given a URL is on unless switched off.
    lifi: {
      enabled: read.bool('LIFI_ENABLED', lifiUrl !== undefined),
      baseUrl: lifiUrl,
      apiKey: read.str('LIFI_API_KEY'),
    },
    across: {
      enabled: read.bool('ACROSS_ENABLED', acrossUrl !== undefined),
      baseUrl: acrossUrl,
      apiKey: read.str('ACROSS_API_KEY'),
      integratorId: acrossIntegratorId,
    },
    relay: {
      enabled: read.bool('RELAY_ENABLED', relayUrl !== undefined),
      baseUrl: relayUrl,
      apiKey: read.str('RELAY_API_KEY'),
      appFeeRecipient: read.address('RELAY_APP_FEE_RECIPIENT'),
    },
    debridge: {
      enabled: read.bool('DEBRIDGE_ENABLED', debridgeUrl !== undefined),
      baseUrl: debridgeUrl,
      accessToken: read.str('DEBRIDGE_ACCESS_TOKEN'),
      referralCode,
      affiliateFeeRecipient: read.address('DEBRIDGE_AFFILIATE_FEE_RECIPIENT'),
    },
    mayan: {
      enabled: read.bool('MAYAN_ENABLED', mayanPriceUrl !== undefined && mayanExplorerUrl !== undefined),
      priceUrl: mayanPriceUrl,
      explorerUrl: mayanExplorerUrl,
      apiKey: read.str('MAYAN_API_KEY'),
      solanaRpcUrl: read.url('MAYAN_SOLANA_RPC_URL', ['http:', 'https:']),
    },
    squid: {
      // Squid answers nothing without an integrator id, so the id, not the URL, is what enables it.
      enabled: read.bool('SQUID_ENABLED', squidIntegratorId !== undefined),
      baseUrl: squidUrl,
      integratorId: squidIntegratorId,
    },
    integrator,
    fee,
    quoteTtlSeconds: read.int('BRIDGE_QUOTE_TTL_SECONDS', 600, 30, 3600),
    rpcUrls: evmRpcUrls(read),
    catalogueTtlSeconds: read.int('BRIDGE_CATALOGUE_TTL_SECONDS', 3600, 1, 30 * 86_400),
  };
}
