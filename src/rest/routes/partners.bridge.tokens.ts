import type { BridgeToken } from '../../providers/bridge/types.js';
import { defineRoute, partnerErrorSchema } from '../route.js';
import { TOKEN_FIELDS, tokenSchema } from './partners.bridge.schemas.js';

interface Data {
  bridgeTokens: { caip2Id: string; tokens: BridgeToken[] };
}

/** GET /partners/bridge/tokens?caip2Id=: tokens of one catalogue chain. 1 credit. */
export const partnersBridgeTokens = defineRoute<Data>({
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
      bridgeTokens(caip2Id: $caip2Id) { caip2Id tokens { ${TOKEN_FIELDS} } }
    }
  `,
  variables: ({ query }) => ({ caip2Id: (query as { caip2Id: string }).caip2Id }),
  respond: (data) => data.bridgeTokens,
});
