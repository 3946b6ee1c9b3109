import type {
  PublicIdentityAddressesQuery,
  PublicIdentityAddressesQueryVariables,
} from '../../../generated/operations.js';
import { defineRoute, type RestRoute } from '../../../platform/http/rest-route.js';
import { caip2IdSchema, errorResponses, nameSchema, nullableString, PUBLIC_MAX_BATCH } from './public-schemas.js';

type Data = PublicIdentityAddressesQuery;

/**
 * `{caip2Id, names}` → `{data: [{owner, resolverAddress}]}`, one entry per name in input order. A name
 * that is not registered (or has expired) keeps its position as `{owner: null, resolverAddress: null}`,
 * so that `data[i]` always answers `names[i]`.
 */
const addressesRoute = (url: string): RestRoute<Data> =>
  defineRoute<Data, PublicIdentityAddressesQueryVariables>({
    method: 'POST',
    url,
    label: `POST ${url}`,
    schema: {
      body: {
        type: 'object',
        required: ['caip2Id', 'names'],
        properties: {
          caip2Id: caip2IdSchema,
          names: { type: 'array', maxItems: PUBLIC_MAX_BATCH, items: nameSchema },
        },
      },
      response: {
        200: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'array',
              items: {
                type: 'object',
                required: ['owner', 'resolverAddress'],
                properties: { owner: nullableString, resolverAddress: nullableString },
              },
            },
          },
        },
        ...errorResponses,
      },
    },
    operation: /* GraphQL */ `
      query PublicIdentityAddresses($names: [String!]!, $caip2Id: String!) {
        nameOwners(names: $names, caip2Id: $caip2Id) { owner resolverAddress }
      }
    `,
    variables: ({ body }) => {
      const b = body as { names: string[]; caip2Id: string };
      return { names: b.names, caip2Id: b.caip2Id };
    },
    respond: ({ nameOwners }) => ({
      data: nameOwners.map((o) => ({ owner: o?.owner ?? null, resolverAddress: o?.resolverAddress ?? null })),
    }),
  });

/** The path the spec documents. */
export const publicIdentityAddressesSpec = addressesRoute('/api/public/public-identity/addresses');
/** The path the published client (@snowballmoney/mns-sdk) calls. */
export const publicIdentityAddresses = addressesRoute('/api/public/identity/addresses');
