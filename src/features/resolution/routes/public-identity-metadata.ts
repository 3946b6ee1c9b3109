import type {
  PublicIdentityMetadataQuery,
  PublicIdentityMetadataQueryVariables,
} from '../../../generated/operations.js';
import { defineRoute } from '../../../platform/http/rest-route.js';
import { errorResponses, nameSchema } from './public-schemas.js';

type Data = PublicIdentityMetadataQuery;

/** GET /api/public/identity/metadata/:name: a name's text records, from mainnet when on several networks. */
export const publicIdentityMetadata = defineRoute<Data, PublicIdentityMetadataQueryVariables>({
  method: 'GET',
  url: '/api/public/identity/metadata/:name',
  label: 'GET /api/public/identity/metadata/:name',
  input: { from: 'params', constraints: { name: nameSchema } },
  errors: errorResponses,
  body: { metadata: 'nameMetadata.metadata' },
  operation: /* GraphQL */ `
    query PublicIdentityMetadata($name: String!) {
      nameMetadata(name: $name) { metadata { key value } }
    }
  `,
});
