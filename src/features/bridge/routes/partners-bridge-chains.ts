import type { BridgeChainsQuery, BridgeChainsQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrorSchema } from '../../../platform/http/rest-route.js';
import { chainSchema } from './partners-bridge-schemas.js';

type Data = BridgeChainsQuery;

/** GET /partners/bridge/chains: the bridge catalogue's chains. 1 credit. */
export const partnersBridgeChains = defineRoute<Data, BridgeChainsQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/chains',
  label: 'GET /partners/bridge/chains',
  schema: {
    response: {
      200: { type: 'object', required: ['chains'], properties: { chains: { type: 'array', items: chainSchema } } },
      '4xx': partnerErrorSchema,
      '5xx': partnerErrorSchema,
    },
  },
  operation: /* GraphQL */ `
    query BridgeChains {
      bridgeChains { caip2Id name nativeToken logoURI isBridgeSupported }
    }
  `,
  variables: () => ({}),
  respond: (data) => ({ chains: data.bridgeChains }),
});
