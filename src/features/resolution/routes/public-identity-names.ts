import type { PublicIdentityNamesQuery, PublicIdentityNamesQueryVariables } from '../../../generated/operations.js';
import type { JsonSchema } from '../../../platform/http/graphql-json-schema.js';
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
  input: {
    from: 'body',
    // caip2Id is nullable, so optional as in the published client's types: absent or null means every network.
    constraints: { caip2Id: caip2IdSchema, addresses: { maxItems: PUBLIC_MAX_BATCH, items: addressSchema } },
  },
  errors: errorResponses,
  // A map from each address as sent to the rest of its PrimaryName.
  body: (at) => {
    const { address: _key, ...properties } = (at('primaryNames').items as JsonSchema).properties ?? {};
    const entry = { type: 'object', required: Object.keys(properties), properties };
    return {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object', additionalProperties: entry } },
    };
  },
  operation: /* GraphQL */ `
    query PublicIdentityNames($addresses: [String!]!, $caip2Id: String) {
      primaryNames(addresses: $addresses, caip2Id: $caip2Id) { address name owner }
    }
  `,
  // A Map, written entry by entry (rest-collection.ts): an object of 1000 keys is a slow dictionary, and
  // would be copied again for the serialiser.
  // An address sent twice is one entry, at its first place.
  respond: ({ primaryNames }) => {
    const data = new Map<string, { name: string; owner: string }>();
    for (const p of primaryNames) data.set(p.address, p);
    return { data };
  },
});
