import type { PublicIdentityNameQuery, PublicIdentityNameQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { addressSchema, caip2IdSchema, errorResponses } from './public-schemas.js';

type Data = PublicIdentityNameQuery;

/** GET /api/public/identity/name: the primary name of an address (reverse lookup). 404 when it has none. */
export const publicIdentityName = defineRoute<Data, PublicIdentityNameQueryVariables>({
  method: 'GET',
  url: '/api/public/identity/name',
  label: 'GET /api/public/identity/name',
  schema: {
    querystring: {
      type: 'object',
      required: ['address', 'caip2Id'],
      properties: { address: addressSchema, caip2Id: caip2IdSchema },
    },
    response: {
      200: {
        type: 'object',
        required: ['name', 'owner'],
        properties: { name: { type: 'string' }, owner: { type: 'string' } },
      },
      ...errorResponses,
    },
  },
  operation: /* GraphQL */ `
    query PublicIdentityName($address: String!, $caip2Id: String!) {
      primaryName(address: $address, caip2Id: $caip2Id) { name owner }
    }
  `,
  variables: ({ query }) => {
    const q = query as { address: string; caip2Id: string };
    return { address: q.address, caip2Id: q.caip2Id };
  },
  respond: (data) => data.primaryName,
});
