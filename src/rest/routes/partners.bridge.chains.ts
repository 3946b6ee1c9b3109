import type { BridgeChain } from '../../providers/bridge/types.js';
import { defineRoute, partnerErrorSchema } from '../route.js';
import { CHAIN_FIELDS, chainSchema } from './partners.bridge.schemas.js';

interface Data {
  bridgeChains: BridgeChain[];
}

/** GET /partners/bridge/chains: the bridge catalogue's chains. 1 credit. */
export const partnersBridgeChains = defineRoute<Data>({
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
      bridgeChains { ${CHAIN_FIELDS} }
    }
  `,
  variables: () => ({}),
  respond: (data) => ({ chains: data.bridgeChains }),
});
