/**
 * What the bridge tests share: the spec's chains, the transfers they quote (ETH → Base for the
 * sandbox, the recorded USDC Arbitrum → Base for LI.FI and Across) and a partner's GET.
 */
import type { TestApp } from '../../../test/support/app.js';
import { NATIVE_EVM } from '../../platform/chains/registry.js';
import { FIXTURE_WALLET, USDC_ARB, USDC_BASE } from './providers/provider.test-helper.js';

/** The chains the service spec names, in its order. */
export const SPEC_CHAINS = [
  'eip155:1',
  'eip155:137',
  'eip155:42161',
  'eip155:8453',
  'eip155:10',
  'eip155:56',
  'eip155:43114',
  'solana:mainnet-beta',
  'bip122:000000000019d6689c085ae165831e93',
];

/** Anvil's second test account. */
export const SANDBOX_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** 1 ETH from Ethereum to Base, as quote query parameters. */
export const ETH_TO_BASE = {
  fromChain: 'eip155:1',
  toChain: 'eip155:8453',
  fromToken: NATIVE_EVM,
  toToken: NATIVE_EVM,
  fromAmount: '1000000000000000000',
  fromAddress: SANDBOX_WALLET,
};

const { fromAddress: _sender, ...ethToBaseAsked } = ETH_TO_BASE;
/** What the sandbox's route for ETH_TO_BASE carries of the request. */
export const SANDBOX_ETH_TO_BASE_ROUTE = { ...ethToBaseAsked, bridgeProvider: 'sandbox' };

/** 100 USDC from Arbitrum to Base, the transfer the LI.FI and Across fixtures answer, as a query. */
export function usdcQuery(extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    fromChain: 'eip155:42161',
    toChain: 'eip155:8453',
    fromToken: USDC_ARB,
    toToken: USDC_BASE,
    fromAmount: '100000000',
    fromAddress: FIXTURE_WALLET,
    slippage: '0.005',
    ...extra,
  });
}

/** A GET on `app` as the partner holding `apiKey`. */
export const partnerGet = (app: TestApp) => (apiKey: string, url: string) =>
  app.http.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
