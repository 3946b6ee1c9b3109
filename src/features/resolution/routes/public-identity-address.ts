import type { PublicIdentityAddressQuery, PublicIdentityAddressQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { caip2IdSchema, errorResponses, nameSchema } from './public-schemas.js';

type Data = PublicIdentityAddressQuery;

/**
 * GET /api/public/identity/address: where a name resolves. Besides the spec's `{owner, resolverAddress}`
 * it answers the `caip2Id` the answer comes from and the name's `subIdentities`, both of which the
 * published client's types know (`subIdentities` is the alias of GraphQL's `subNames`). `resolverAddress`
 * is null when the registry does not know it.
 */
export const publicIdentityAddress = defineRoute<Data, PublicIdentityAddressQueryVariables>({
  method: 'GET',
  url: '/api/public/identity/address',
  label: 'GET /api/public/identity/address',
  input: { from: 'query', constraints: { name: nameSchema, caip2Id: caip2IdSchema } },
  errors: errorResponses,
  body: 'nameOwner',
  operation: /* GraphQL */ `
    query PublicIdentityAddress($name: String!, $caip2Id: String!) {
      nameOwner(name: $name, caip2Id: $caip2Id) {
        owner resolverAddress caip2Id subIdentities: subNames { name address }
      }
    }
  `,
});
