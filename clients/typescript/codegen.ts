import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents for the operations in src/documents.graphql, against the API schema: the repository's
 * composed schema by default, or a running server's (`CIPGATE_URL=https://… npm run generate`).
 */
const url = process.env.CIPGATE_URL;
const config: CodegenConfig = {
  schema: url ? `${url}/graphql` : '../../schema/api.graphql',
  documents: ['src/documents.graphql'],
  generates: {
    'src/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        documentMode: 'string',
        onlyOperationTypes: true,
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', URL: 'string', SafeInt: 'number', BigInt: 'string' },
      },
    },
  },
};

export default config;
