import type {
  PublicIdentityAddressesQuery,
  PublicIdentityAddressesQueryVariables,
} from '../../../generated/operations.js';
import { type JsonSchema, orNull } from '../../../platform/http/graphql-json-schema.js';
import { defineRoute, type RestRoute } from '../../../platform/http/rest-route.js';
import { caip2IdSchema, errorResponses, nameSchema, PUBLIC_MAX_BATCH } from './public-schemas.js';

type Data = PublicIdentityAddressesQuery;

/** A NameOwner whose every field is there and may be null: how an unregistered name keeps its place. */
const ownerOrNulls = ({ properties = {} }: JsonSchema): JsonSchema => ({
  type: 'object',
  required: Object.keys(properties),
  properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, orNull(v)])),
});

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
    input: {
      from: 'body',
      constraints: { caip2Id: caip2IdSchema, names: { maxItems: PUBLIC_MAX_BATCH, items: nameSchema } },
    },
    errors: errorResponses,
    body: (at) => ({
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'array', items: ownerOrNulls(at('nameOwners').items ?? {}) } },
    }),
    operation: /* GraphQL */ `
      query PublicIdentityAddresses($caip2Id: String!, $names: [String!]!) {
        nameOwners(names: $names, caip2Id: $caip2Id) { owner resolverAddress }
      }
    `,
    respond: ({ nameOwners }) => ({
      data: nameOwners.map((o) => ({ owner: o?.owner ?? null, resolverAddress: o?.resolverAddress ?? null })),
    }),
  });

/** The path the spec documents. */
export const publicIdentityAddressesSpec = addressesRoute('/api/public/public-identity/addresses');
/** The path the published client (@snowballmoney/mns-sdk) calls. */
export const publicIdentityAddresses = addressesRoute('/api/public/identity/addresses');
