import type { BridgeQuoteQuery, BridgeQuoteQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

type Data = BridgeQuoteQuery;

const text = { minLength: 1, maxLength: 200 };

/**
 * GET /partners/bridge/quote: routes of every enabled provider, best first. 2 credits. The parameters are
 * BridgeQuoteInput's fields, including the tuning ones (order, allowBridges, denyBridges, maxRoutes). The schema only checks presence, types and lengths; the value rules live in
 * the resolver so GraphQL callers get the same answers.
 */
export const partnersBridgeQuote = defineRoute<Data, BridgeQuoteQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/quote',
  label: 'GET /partners/bridge/quote',
  input: {
    from: 'query',
    variable: 'input',
    constraints: {
      fromChain: text,
      toChain: text,
      fromToken: text,
      toToken: text,
      fromAmount: text,
      fromAddress: text,
      toAddress: text,
      order: { maxLength: 20 },
      allowBridges: { maxLength: 1000 },
      denyBridges: { maxLength: 1000 },
    },
  },
  errors: partnerErrors,
  operation: /* GraphQL */ `
    query BridgeQuote($input: BridgeQuoteInput!) {
      bridgeQuote(input: $input) { id fromChain toChain fromToken toToken fromAmount toAmount toAmountMin gasCostUSD feeCostUSD
        fromAmountUSD toAmountUSD bridgeProvider aggregator estimatedTimeSeconds expiresAt approvalAddress
        transactionData { from to data value gasLimit gasPrice chainId }
        approvalTransaction { from to data value gasLimit gasPrice chainId } serializedTransaction }
    }
  `,
  body: { routes: 'bridgeQuote' },
});
