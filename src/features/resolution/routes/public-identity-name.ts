import type { PublicIdentityNameQuery, PublicIdentityNameQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { addressSchema, caip2IdSchema, errorResponses } from './public-schemas.js';

type Data = PublicIdentityNameQuery;

/** GET /api/public/identity/name: the primary name of an address (reverse lookup). 404 when it has none. */
export const publicIdentityName = defineRoute<Data, PublicIdentityNameQueryVariables>({
  method: 'GET',
  url: '/api/public/identity/name',
  label: 'GET /api/public/identity/name',
  input: { from: 'query', constraints: { address: addressSchema, caip2Id: caip2IdSchema } },
  errors: errorResponses,
  body: 'primaryName',
  operation: /* GraphQL */ `
    query PublicIdentityName($address: String!, $caip2Id: String!) {
      primaryName(address: $address, caip2Id: $caip2Id) { name owner }
    }
  `,
});
