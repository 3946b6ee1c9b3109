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
  schema: {
    params: { type: 'object', required: ['name'], properties: { name: nameSchema } },
    response: {
      200: {
        type: 'object',
        required: ['metadata'],
        properties: {
          metadata: {
            type: 'array',
            items: {
              type: 'object',
              required: ['key', 'value'],
              properties: { key: { type: 'string' }, value: { type: 'string' } },
            },
          },
        },
      },
      ...errorResponses,
    },
  },
  operation: /* GraphQL */ `
    query PublicIdentityMetadata($name: String!) {
      nameMetadata(name: $name) { metadata { key value } }
    }
  `,
  variables: ({ params }) => ({ name: (params as { name: string }).name }),
  respond: (data) => ({ metadata: data.nameMetadata.metadata }),
});
