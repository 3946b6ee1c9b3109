import type { PublicIdentityNamesQuery, PublicIdentityNamesQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { addressSchema, caip2IdSchema, errorResponses, PUBLIC_MAX_BATCH } from './public-schemas.js';

type Data = PublicIdentityNamesQuery;

/**
 * POST /api/public/identity/names: primary names of up to 1000 addresses, keyed by each address exactly
 * as sent. Addresses without a primary name are left out; no caip2Id means every network.
 */
export const publicIdentityNames = defineRoute<Data, PublicIdentityNamesQueryVariables>({
  method: 'POST',
  url: '/api/public/identity/names',
  label: 'POST /api/public/identity/names',
  schema: {
    body: {
      type: 'object',
      required: ['addresses'],
      properties: {
        // Optional in the published client's types; absent or null means every network.
        caip2Id: { anyOf: [caip2IdSchema, { type: 'null' }] },
        addresses: { type: 'array', maxItems: PUBLIC_MAX_BATCH, items: addressSchema },
      },
    },
    response: {
      200: {
        type: 'object',
        required: ['data'],
        properties: {
          data: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              required: ['name', 'owner'],
              properties: { name: { type: 'string' }, owner: { type: 'string' } },
            },
          },
        },
      },
      ...errorResponses,
    },
  },
  operation: /* GraphQL */ `
    query PublicIdentityNames($addresses: [String!]!, $caip2Id: String) {
      primaryNames(addresses: $addresses, caip2Id: $caip2Id) { address name owner }
    }
  `,
  variables: ({ body }) => {
    const b = body as { addresses: string[]; caip2Id?: string };
    return { addresses: b.addresses, caip2Id: b.caip2Id ?? null };
  },
  respond: ({ primaryNames }) => {
    const data: Record<string, { name: string; owner: string }> = {};
    for (const p of primaryNames) data[p.address] = { name: p.name, owner: p.owner };
    return { data };
  },
});
