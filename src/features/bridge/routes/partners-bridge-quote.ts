import type { BridgeQuoteQuery, BridgeQuoteQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrorSchema } from '../../../platform/http/rest-route.js';
import { routeSchema } from './partners-bridge-schemas.js';

type Data = BridgeQuoteQuery;

interface Query {
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  fromAmount: string;
  fromAddress: string;
  toAddress?: string;
  slippage?: number;
}

const text = { type: 'string', minLength: 1, maxLength: 200 } as const;

/**
 * GET /partners/bridge/quote: routes of every enabled provider, best first. 2 credits. The schema
 * only checks presence and types; the value rules live in the resolver so GraphQL callers get the
 * same answers.
 */
export const partnersBridgeQuote = defineRoute<Data, BridgeQuoteQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/quote',
  label: 'GET /partners/bridge/quote',
  schema: {
    querystring: {
      type: 'object',
      required: ['fromChain', 'toChain', 'fromToken', 'toToken', 'fromAmount', 'fromAddress'],
      properties: {
        fromChain: text,
        toChain: text,
        fromToken: text,
        toToken: text,
        fromAmount: text,
        fromAddress: text,
        toAddress: text,
        slippage: { type: 'number' },
      },
    },
    response: {
      200: { type: 'object', required: ['routes'], properties: { routes: { type: 'array', items: routeSchema } } },
      '4xx': partnerErrorSchema,
      '5xx': partnerErrorSchema,
    },
  },
  operation: /* GraphQL */ `
    query BridgeQuote($input: BridgeQuoteInput!) {
      bridgeQuote(input: $input) { id fromChain toChain fromToken toToken fromAmount toAmount toAmountMin gasCostUSD feeCostUSD
        fromAmountUSD toAmountUSD bridgeProvider estimatedTimeSeconds
        transactionData { from to data value gasLimit gasPrice chainId } }
    }
  `,
  variables: ({ query }) => {
    const q = query as Query;
    return {
      input: {
        fromChain: q.fromChain,
        toChain: q.toChain,
        fromToken: q.fromToken,
        toToken: q.toToken,
        fromAmount: q.fromAmount,
        fromAddress: q.fromAddress,
        toAddress: q.toAddress ?? null,
        slippage: q.slippage ?? null,
      },
    };
  },
  respond: (data) => ({ routes: data.bridgeQuote }),
});
