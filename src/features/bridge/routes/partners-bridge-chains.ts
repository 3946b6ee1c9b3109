import type { BridgeChainsQuery, BridgeChainsQueryVariables } from '../../../generated/operations.js';
import { defineRoute, partnerErrors } from '../../../platform/http/rest-route.js';

type Data = BridgeChainsQuery;

/** GET /partners/bridge/chains: the bridge catalogue's chains. 1 credit. */
export const partnersBridgeChains = defineRoute<Data, BridgeChainsQueryVariables>({
  method: 'GET',
  url: '/partners/bridge/chains',
  label: 'GET /partners/bridge/chains',
  errors: partnerErrors,
  operation: /* GraphQL */ `
    query BridgeChains {
      bridgeChains { caip2Id name nativeToken logoURI isBridgeSupported }
    }
  `,
  body: { chains: 'bridgeChains' },
});
