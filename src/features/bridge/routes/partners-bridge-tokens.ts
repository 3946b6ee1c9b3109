import type { BridgeTokensQuery, BridgeTokensQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrorSchema } from '../../../platform/http/rest-route.js';
import { tokenSchema } from './partners-bridge-schemas.js';

type Data = BridgeTokensQuery;

/** GET /partners/bridge/tokens?caip2Id=: tokens of one catalogue chain. 1 credit. */
export const partnersBridgeTokens = defineRoute<Data, BridgeTokensQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/tokens',
  label: 'GET /partners/bridge/tokens',
  schema: {
    querystring: {
      type: 'object',
      required: ['caip2Id'],
      properties: { caip2Id: { type: 'string', minLength: 1, maxLength: 80 } },
    },
    response: {
      200: {
        type: 'object',
        required: ['caip2Id', 'tokens'],
        properties: { caip2Id: { type: 'string' }, tokens: { type: 'array', items: tokenSchema } },
      },
      '4xx': partnerErrorSchema,
      '5xx': partnerErrorSchema,
    },
  },
  operation: /* GraphQL */ `
    query BridgeTokens($caip2Id: String!) {
      bridgeTokens(caip2Id: $caip2Id) { caip2Id tokens { address symbol name decimals logoURI priceUSD } }
    }
  `,
  variables: ({ query }) => ({ caip2Id: (query as { caip2Id: string }).caip2Id }),
  // GraphQL says "no price" with null; the REST answer leaves the field out.
  respond: ({ bridgeTokens: { caip2Id, tokens } }) => ({
    caip2Id,
    tokens: tokens.map(({ priceUSD, ...token }) => (priceUSD == null ? token : { ...token, priceUSD })),
  }),
});
