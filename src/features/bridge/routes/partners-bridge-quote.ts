import type { BridgeQuoteQuery, BridgeQuoteQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';
import { MAX_ROUTES_LIMIT, MAX_SLIPPAGE, ORDERS } from '../validation.js';

type Data = BridgeQuoteQuery;

const text = { minLength: 1, maxLength: 200 };

/** `order`'s values in any case, as the resolver reads them (validation.ts): one source for both. */
const anyCase = (words: readonly string[]) =>
  `^(?:${words.map((w) => [...w].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('')).join('|')})$`;

/**
 * GET /partners/bridge/quote: routes of every enabled provider, best first. 2 credits. The parameters are
 * BridgeQuoteInput's fields, including the tuning ones (order, allowBridges, denyBridges, maxRoutes). The
 * schema's bounds are the resolver's constants (validation.ts), so the document says what the server
 * accepts; the resolver checks them again, and the rules no schema can say, for GraphQL callers.
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
      order: { maxLength: 20, pattern: anyCase(ORDERS), description: `${ORDERS.join(' or ')}, in any case.` },
      maxRoutes: { minimum: 1, maximum: MAX_ROUTES_LIMIT },
      slippage: { exclusiveMinimum: 0, maximum: MAX_SLIPPAGE },
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
