import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Types the GraphQL operations that the REST layer and the tests send, against the composed API schema
 * (`npm run compose` writes schema/api.graphql). `npm run codegen` regenerates; test/schema.test.ts checks
 * that the committed schema files and generated types are current.
 */
const config: CodegenConfig = {
  schema: 'schema/api.graphql',
  documents: ['src/features/*/routes/*.ts', '!src/features/*/routes/*.test.ts'],
  generates: {
    'src/generated/operations.ts': {
      plugins: ['typescript-operations'],
      config: {
        onlyOperationTypes: true,
        avoidOptionals: false,
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', URL: 'string', SafeInt: 'number', BigInt: 'string' },
      },
    },
  },
};

export default config;
