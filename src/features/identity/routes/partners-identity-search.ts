import type { IdentitySearchQuery, IdentitySearchQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { MAX_PER_PAGE, MAX_QUERY_LENGTH } from '../search.js';

type Data = IdentitySearchQuery;

const nullableString = { type: ['string', 'null'] } as const;

const multichainAddress = {
  type: 'object',
  required: ['address', 'caip2Id', 'chainName', 'symbol'],
  properties: {
    address: { type: 'string' },
    caip2Id: { type: 'string' },
    chainName: nullableString,
    symbol: nullableString,
  },
} as const;

const txtRecord = {
  type: 'object',
  required: ['key', 'value', 'type'],
  properties: { key: { type: 'string' }, value: { type: 'string' }, type: { type: 'string' } },
} as const;

/**
 * Every field of the spec's identity result is always present: a value the naming service does not
 * hold is `null` (ownerAddress, avatar, expireAt, registeredAt, and a multichain address's chainName and
 * symbol on a chain cipgate does not know), never omitted, the same as on GraphQL. Lists are `[]` when
 * empty. `required` makes the serialiser refuse an answer that would silently drop a field.
 */
const identityResult = {
  type: 'object',
  required: [
    'name',
    'ownerAddress',
    'source',
    'provider',
    'providerName',
    'caip2Id',
    'avatar',
    'logoURI',
    'url',
    'expireAt',
    'registeredAt',
    'multichainAddresses',
    'txtRecords',
  ],
  properties: {
    name: { type: 'string' },
    ownerAddress: nullableString,
    source: { type: 'string' },
    provider: { type: 'string' },
    providerName: { type: 'string' },
    caip2Id: { type: 'string' },
    avatar: nullableString,
    logoURI: { type: 'string' },
    url: { type: 'string' },
    expireAt: nullableString,
    registeredAt: nullableString,
    multichainAddresses: { type: 'array', items: multichainAddress },
    txtRecords: { type: 'array', items: txtRecord },
  },
} as const;

/** GET /partners/cip/identity/search: names across naming services, paged. 1 credit; errors are free. */
export const partnersIdentitySearch = defineRoute<Data, IdentitySearchQueryVariables>({
  method: 'GET',
  url: '/partners/cip/identity/search',
  label: 'GET /partners/cip/identity/search',
  schema: {
    querystring: {
      type: 'object',
      required: ['query'],
      properties: {
        // `\S` refuses a blank query here already; the search itself checks again for GraphQL callers.
        query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, pattern: '\\S' },
        page: { type: 'integer', minimum: 1, maximum: 2_147_483_647, default: 1 },
        perPage: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 10 },
      },
    },
    response: {
      200: {
        type: 'object',
        required: ['results', 'pagination'],
        properties: {
          results: { type: 'array', items: identityResult },
          pagination: {
            type: 'object',
            required: ['page', 'perPage', 'total', 'totalPages'],
            properties: {
              page: { type: 'integer' },
              perPage: { type: 'integer' },
              total: { type: 'integer' },
              totalPages: { type: 'integer' },
            },
          },
        },
      },
    },
  },
  operation: /* GraphQL */ `
    query IdentitySearch($query: String!, $page: Int!, $perPage: Int!) {
      identitySearch(query: $query, page: $page, perPage: $perPage) {
        results {
          name
          ownerAddress
          source
          provider
          providerName
          caip2Id
          avatar
          logoURI
          url
          expireAt
          registeredAt
          multichainAddresses { address caip2Id chainName symbol }
          txtRecords { key value type }
        }
        pagination { page perPage total totalPages }
      }
    }
  `,
  variables: ({ query }) => {
    const q = query as { query: string; page: number; perPage: number };
    return { query: q.query, page: q.page, perPage: q.perPage };
  },
  respond: (data) => data.identitySearch,
});
