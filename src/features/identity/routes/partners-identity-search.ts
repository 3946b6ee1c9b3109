import type { IdentitySearchQuery, IdentitySearchQueryVariables } from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { MAX_PER_PAGE, MAX_QUERY_LENGTH } from '../search.js';

type Data = IdentitySearchQuery;

/** GET /partners/cip/identity/search: names across naming services, paged. 1 credit; errors are free. */
export const partnersIdentitySearch = defineRoute<Data, IdentitySearchQueryVariables>({
  method: 'GET',
  url: '/partners/cip/identity/search',
  label: 'GET /partners/cip/identity/search',
  input: {
    from: 'query',
    constraints: {
      // `\S` refuses a blank query here already; the search itself checks again for GraphQL callers.
      query: { minLength: 1, maxLength: MAX_QUERY_LENGTH, pattern: '\\S' },
      page: { minimum: 1 },
      perPage: { minimum: 1, maximum: MAX_PER_PAGE },
    },
  },
  // Every field of the identity result is present, a value the naming service does not hold as null (the
  // same as on GraphQL): the response schema is the selection's, so the serialiser drops nothing.
  body: 'identitySearch',
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
        pagination { page perPage total totalIsExact totalPages }
      }
    }
  `,
});
