import type { PublicIdentityAddressQuery, PublicIdentityAddressQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { caip2IdSchema, errorResponses, nameSchema, nullableString } from './public-schemas.js';

type Data = PublicIdentityAddressQuery;

/**
 * GET /api/public/identity/address: where a name resolves. Besides the spec's `{owner, resolverAddress}`
 * it answers the `caip2Id` the answer comes from and the name's `subIdentities`, both of which the
 * published client's types know. `resolverAddress` is null when the registry does not know it.
 */
export const publicIdentityAddress = defineRoute<Data, PublicIdentityAddressQueryVariables>({
  method: 'GET',
  url: '/api/public/identity/address',
  label: 'GET /api/public/identity/address',
  schema: {
    querystring: {
      type: 'object',
      required: ['name', 'caip2Id'],
      properties: { name: nameSchema, caip2Id: caip2IdSchema },
    },
    response: {
      200: {
        type: 'object',
        required: ['owner', 'resolverAddress'],
        properties: {
          owner: { type: 'string' },
          resolverAddress: nullableString,
          caip2Id: { type: 'string' },
          subIdentities: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'address'],
              properties: { name: { type: 'string' }, address: { type: 'string' } },
            },
          },
        },
      },
      ...errorResponses,
    },
  },
  operation: /* GraphQL */ `
    query PublicIdentityAddress($name: String!, $caip2Id: String!) {
      nameOwner(name: $name, caip2Id: $caip2Id) { owner resolverAddress caip2Id subNames { name address } }
    }
  `,
  variables: ({ query }) => {
    const q = query as { name: string; caip2Id: string };
    return { name: q.name, caip2Id: q.caip2Id };
  },
  respond: ({ nameOwner: o }) => ({
    owner: o.owner,
    resolverAddress: o.resolverAddress,
    caip2Id: o.caip2Id,
    subIdentities: o.subNames,
  }),
});
