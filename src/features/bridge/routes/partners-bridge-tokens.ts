import type { BridgeTokensQuery, BridgeTokensQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

type Data = BridgeTokensQuery;

/** GET /partners/bridge/tokens?caip2Id=: tokens of one catalogue chain. 1 credit. */
export const partnersBridgeTokens = defineRoute<Data, BridgeTokensQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/tokens',
  label: 'GET /partners/bridge/tokens',
  input: { from: 'query', constraints: { caip2Id: { minLength: 1, maxLength: 80 } } },
  errors: partnerErrors,
  operation: /* GraphQL */ `
    query BridgeTokens($caip2Id: String!) {
      bridgeTokens(caip2Id: $caip2Id) { caip2Id tokens { address symbol name decimals logoURI priceUSD } }
    }
  `,
  body: 'bridgeTokens',
  // GraphQL says "no price" with null; the REST answer leaves the field out.
  respond: ({ bridgeTokens: { caip2Id, tokens } }) => ({
    caip2Id,
    tokens: tokens.map(({ priceUSD, ...token }) => (priceUSD == null ? token : { ...token, priceUSD })),
  }),
});
